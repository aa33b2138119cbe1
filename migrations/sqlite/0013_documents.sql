-- PDF documents (PRODUCT.md 12.5, docs/adr/0010-pdf-documents.md).
--
-- `receipt`: the receipts read model (projections::receipts), one row per payment
-- received and per refund sent back; `doc` holds the receipt's facts as JSON.
create table receipt
(
    receipt_key text not null primary key,
    receipt_no  text not null,
    order_id    text not null,
    kind        text not null,
    amount      text not null,
    at          text not null,
    doc         text not null
) strict;
create unique index receipt_number on receipt (receipt_no);
create index receipt_order on receipt (order_id, at);

-- Every document download (who, which document, which order, when): written by the
-- api before it answers with the PDF, never updated or deleted. `actor` is
-- `user:<id>` or `auditor:<id>`, as in the events' metadata.
create table document_download
(
    download_id text not null primary key,
    at          text not null,
    actor       text not null,
    document    text not null,
    order_id    text not null,
    receipt_no  text not null default '',
    lang        text not null,
    request_id  text not null default ''
) strict;
create index document_download_order on document_download (order_id, at);
