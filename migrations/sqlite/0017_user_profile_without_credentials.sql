-- user_profile.state no longer holds credentials (projections::users::redact_credentials):
-- the password hash is stored empty and a set withdraw PIN's hash as "[redacted]", so
-- that reading the read models (a replica, an analytics copy) gives nothing to attack
-- offline. Only the User aggregate checks them, on its own fold of the events. This
-- redacts the rows written before; the projection writes every new row redacted.
update user_profile
   set state = json_set(state,
         '$.password_hash', '',
         '$.pin_hash', case when json_type(state, '$.pin_hash') = 'text'
                            then '[redacted]' end)
 where json_valid(state);
