-- Human order numbers (PRODUCT.md 12.5: "HL-2611-000123"; ids stay on the wire): the
-- orders projection writes them from the position of each order's LoanApplied event,
-- so a rebuild gives every order the same number again. Empty until the projection
-- has (re)written the row.
alter table order_list add column order_no text not null default '';
alter table audit_queue add column order_no text not null default '';
