-- Personal data exports (PRODUCT.md 12.6, api/src/queries/data_export.rs): one row per
-- export answered by `/jackey/user/dataExport` (the borrower's own) or
-- `/admin/api/users/dataExport` (an auditor's, of any borrower), written by the api
-- before it answers, never updated or deleted. `actor` is `user:<id>` or
-- `auditor:<id>`, as in the events' metadata; `user_id` is whose data left.
create table data_export
(
    export_id  text not null primary key,
    at         text not null,
    actor      text not null,
    user_id    text not null,
    request_id text not null default ''
) strict;
create index data_export_user on data_export (user_id, at);
