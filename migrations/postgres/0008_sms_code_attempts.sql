-- SMS codes (PRODUCT.md 12.2, issue 13): each code allows 5 wrong entries, then it is
-- void. The count moves in the same statement that checks the code (api::sms::verify).
alter table sms_code add column failed_attempts integer not null default 0;
