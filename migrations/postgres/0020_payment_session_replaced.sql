-- A payment page can be replaced by a newer one before it is paid (issue 52: a page
-- left open must not block a payoff; the Order's `PaymentSessionReplaced`). Its row
-- then reads `replaced` and its page stops offering Pay.
alter table payment_session drop constraint payment_session_status_check;
alter table payment_session add constraint payment_session_status_check
    check (status in ('open', 'paid', 'failed', 'replaced'));
