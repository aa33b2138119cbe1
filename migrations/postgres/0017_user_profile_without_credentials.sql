-- user_profile.state no longer holds credentials (projections::users::redact_credentials):
-- the password hash is stored empty and a set withdraw PIN's hash as "[redacted]", so
-- that reading the read models (a replica, an analytics copy) gives nothing to attack
-- offline. Only the User aggregate checks them, on its own fold of the events. This
-- redacts the rows written before; the projection writes every new row redacted.
update user_profile
   set state = (state::jsonb || jsonb_build_object(
         'password_hash', '',
         'pin_hash', case when jsonb_typeof(state::jsonb -> 'pin_hash') = 'string'
                          then '[redacted]' end))::text
 where state like '{%';
