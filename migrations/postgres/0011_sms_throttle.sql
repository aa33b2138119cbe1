-- One SMS code per 60 s per phone and purpose (PRODUCT.md 12.2), decided in one
-- statement: `sms::send` moves `last_sent_at` only when the last send is old enough
-- (an upsert whose update has a WHERE), so parallel sends cannot both pass a check
-- made before either inserted, as a count-then-insert could.
create table sms_throttle
(
    mobile       text not null,
    purpose      text not null,
    last_sent_at text not null,
    primary key (mobile, purpose)
);
insert into sms_throttle (mobile, purpose, last_sent_at)
select mobile, purpose, max(created_at) from sms_code group by mobile, purpose;
