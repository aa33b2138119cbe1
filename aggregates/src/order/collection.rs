//! A late loan's collection (issue 53, PRODUCT.md 13): days past due and the bucket
//! history, the collector's contacts under the fair-collection guard (P15), the
//! borrower's choice of contact hours, assignment, and promises to pay.
//!
//! Guarantees, decided here from the order's own state:
//! - a contact about the debt is recorded only with the borrower (or a named
//!   guarantor) and only inside the profile's hours, unless the profile lifts them
//!   (`PH`: more than 15 days past due, or the borrower chose other hours); a refused
//!   attempt is recorded as `ContactRefused` for the audit trail and answered
//!   50001/50002 ([`crate::collections::ContactRules::check`]);
//! - the bucket moves by an event (`DelinquencyChanged`) the day the days past due
//!   cross a bound, so the bucket of any past day is answerable from the log;
//! - a promise to pay is for an amount up to what is owed and a date from today to
//!   [`MAX_PROMISE_DAYS`] ahead, one open at a time (50004); it is kept once the
//!   payments that arrived by its date cover it, and broken the day after its date
//!   otherwise; promising costs nothing and changes nothing owed (P16).
//!
//! Days are the loan's local days (`LoanTerms::day_of`: the profile's zone, Asia/Manila
//! for `PH`), like the schedule's due dates (`Installment::due_date`); only
//! the contact hours are read on the borrower's local clock.

use super::aggregate::Order;
use super::commands::OrderCommand;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::status::OrderStatus;
use crate::collections::{self, ContactBreach, ContactChannel, ContactOutcome, ContactPerson};
use crate::services::OrderServices;
use crate::types::{check_length, InvalidInput, MAX_NOTE_CHARS};
use chrono::{DateTime, Days, NaiveDate, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The furthest a promise to pay may be dated, in days from today.
pub const MAX_PROMISE_DAYS: u64 = 30;

/// Who made a promise to pay.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PromiseMaker {
    /// The borrower, in the app.
    Borrower,
    /// An officer, during a contact.
    Officer {
        /// The officer.
        officer_id: Uuid,
    },
}

/// An open promise to pay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Promise {
    /// Amount promised.
    pub amount: Decimal,
    /// Paid by the end of this day (the loan's local day).
    pub date: NaiveDate,
    /// Who made it.
    pub by: PromiseMaker,
    /// When it was made.
    pub made_at: DateTime<Utc>,
    /// Paid towards it so far: repayments that arrived after it was made and by its date.
    pub paid: Decimal,
}

/// The collection state of an order; all defaults before the first late day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Collection {
    /// The bucket last recorded (`DelinquencyChanged`); `None`: never late.
    pub bucket: Option<String>,
    /// The days past due at which the loan leaves that bucket; `None` in the last one.
    pub bucket_leaves_at: Option<u32>,
    /// The local day of the last contact recorded (the once-a-day rule of `TH`).
    pub last_contact_on: Option<NaiveDate>,
    /// When the last contact was made, and what came of it.
    pub last_contact: Option<(DateTime<Utc>, ContactOutcome)>,
    /// The next action's day the last contact planned.
    pub next_action_on: Option<NaiveDate>,
    /// The borrower stated that other hours suit them (`PH` lifts the hours).
    pub any_hours: bool,
    /// The collector the loan is assigned to.
    pub collector: Option<Uuid>,
    /// The open promise to pay.
    pub promise: Option<Promise>,
    /// Off the books (`LoanChargedOff`), until reversed.
    pub charge_off: Option<super::charge_off::ChargeOff>,
    /// A charge-off proposed and not yet confirmed by a second officer.
    pub charge_off_proposal: Option<super::charge_off::FourEyesProposal>,
    /// A reversal proposed and not yet confirmed by a second officer.
    pub reversal_proposal: Option<super::charge_off::FourEyesProposal>,
    /// A waiver above the four-eyes amount, not yet confirmed.
    pub waiver_proposal: Option<super::waiver::WaiverProposal>,
    /// Interest waived so far (a waiver of interest is at most the contract's).
    pub interest_waived: Decimal,
    /// Extensions of the repayment period taken (issue 53).
    pub extensions: u32,
    /// The interest they added.
    pub extension_interest: Decimal,
    /// The borrower asked for a payment plan and none was signed since.
    #[serde(default)]
    pub plan_requested: bool,
    /// The payment plan proposed and not yet signed.
    #[serde(default)]
    pub plan: Option<super::payment_plan::PaymentPlan>,
    /// The changes to the loan the borrower signed after the payout, oldest first:
    /// the contract prints them (issue 53).
    #[serde(default)]
    pub amendments: Vec<Amendment>,
}

/// A change to a disbursed loan the borrower signed ([`Collection::amendments`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Amendment {
    /// An extension of the repayment period (`TermExtended`).
    Extension {
        /// When it was signed.
        signed_at: DateTime<Utc>,
        /// Days every installment still owed moved by.
        days: u32,
        /// The interest for them, added to what is owed.
        extra_interest: Decimal,
    },
    /// A payment plan (`PaymentPlanSigned`).
    PaymentPlan {
        /// When it was signed.
        signed_at: DateTime<Utc>,
        /// Its installments.
        installments: u32,
        /// What it asks for in all.
        total: Decimal,
        /// Overdue fees it waived.
        fees_waived: Decimal,
    },
}

/// A contact an officer logs (`OrderCommand::LogContact`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contact {
    /// The officer.
    pub officer_id: Uuid,
    /// How.
    pub channel: ContactChannel,
    /// With whom.
    pub person: ContactPerson,
    /// What came of it.
    pub outcome: ContactOutcome,
    /// The officer's note (at most 500 characters).
    pub note: String,
    /// The next action's day, if one is planned.
    pub next_action_on: Option<NaiveDate>,
    /// For an SMS: the lender's template sent (required; officers never type a text
    /// to a borrower, P15); none for other channels.
    #[serde(default)]
    pub template: Option<String>,
}

impl Order {
    /// Days past due on `today` (the loan's local day): see [`collections::days_past_due`]; 0 unless
    /// disbursed.
    pub fn days_past_due(&self, today: NaiveDate) -> u32 {
        match (&self.loan, self.status) {
            (Some(loan), OrderStatus::Disbursed) => collections::days_past_due(
                loan.schedule
                    .iter()
                    .filter(|i| !i.unpaid().is_zero())
                    .map(|i| i.due_date),
                today,
            ),
            _ => 0,
        }
    }

    /// The first day after `today` on which the loan's bucket or its promise could
    /// change without a payment: the next bound crossed, or the day after the
    /// promise's date. `None` when neither can.
    pub(super) fn next_collection_day(&self) -> Option<NaiveDate> {
        let loan = self
            .loan
            .as_ref()
            .filter(|_| self.status == OrderStatus::Disbursed)?;
        let oldest = loan
            .schedule
            .iter()
            .filter(|i| !i.unpaid().is_zero())
            .map(|i| i.due_date)
            .min();
        // The day the days past due leave the recorded bucket (current: at 1); a
        // payment that moves them back is recorded with the payment.
        let leaves_at = match self.collection.bucket {
            None => Some(1),
            Some(_) => self.collection.bucket_leaves_at,
        };
        let bucket_day = oldest
            .zip(leaves_at)
            .and_then(|(due, dpd)| due.checked_add_days(Days::new(u64::from(dpd))));
        let promise_day = self
            .collection
            .promise
            .as_ref()
            .and_then(|p| p.date.checked_add_days(Days::new(1)));
        bucket_day.into_iter().chain(promise_day).min()
    }

    /// The scheduler's daily look (with `AccrueOverdue`, `scheduled`) and a
    /// repayment's aftermath: records a bucket move (a payment records only a move
    /// back), and settles a promise that is covered or whose date has passed.
    pub(super) async fn review_collection(
        &mut self,
        scheduled: bool,
        services: &OrderServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed && self.status != OrderStatus::Repaid {
            return Ok(());
        }
        let today = self.day_of(now);
        let days_past_due = self.days_past_due(today);
        let buckets = services.catalogue.delinquency_buckets();
        let bucket = buckets.bucket(days_past_due);
        let recorded = self.collection.bucket.as_deref().unwrap_or("current");
        let leaves_at = buckets.leaves_at(&bucket);
        // The scheduler records every move; a payment only a move back (a cure), since
        // a move forward is the calendar's, on the day the scheduler looks.
        let better = leaves_at.unwrap_or(u32::MAX)
            < self.collection.bucket_leaves_at.unwrap_or(u32::MAX)
            && self.collection.bucket.is_some();
        if bucket != recorded && (scheduled || better) {
            let day_start = self.loan.as_ref().map(|loan| loan.terms.day_start(today));
            let event = OrderEvent::DelinquencyChanged {
                leaves_at,
                bucket,
                days_past_due,
                on: today,
                day_start,
            };
            sink.write(event, self).await;
        }
        if let Some(promise) = &self.collection.promise {
            let kept = promise.paid >= promise.amount || self.status == OrderStatus::Repaid;
            if kept || today > promise.date {
                let event = OrderEvent::PromiseSettled {
                    kept,
                    paid: promise.paid,
                    at: now,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    /// The collection commands (issue 53), each decided by its method here or in
    /// `charge_off.rs`.
    pub(super) async fn handle_collection(
        &mut self,
        command: OrderCommand,
        services: &OrderServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        use OrderCommand as C;
        match command {
            C::LogContact(contact) => self.log_contact(contact, services, sink, now).await,
            C::AssignCollector { collector, by } => {
                self.assign_collector(collector, by, sink, now).await
            }
            C::ChargeOff { officer_id, reason } => {
                let threshold = services.catalogue.charge_off_after_days();
                self.charge_off(officer_id, reason, threshold, sink, now)
                    .await
            }
            C::ReverseChargeOff { officer_id, reason } => {
                self.reverse_charge_off(officer_id, reason, sink, now).await
            }
            C::ChooseContactHours { any_hours } => {
                self.choose_contact_hours(any_hours, sink, now).await
            }
            C::PromiseToPay { amount, date, by } => {
                self.promise_to_pay(amount, date, by, sink, now).await
            }
            C::ExtendTerm {
                days,
                accepted_total,
                signature,
            } => {
                let compliance = services.compliance.as_ref();
                self.extend_term(days, accepted_total, signature, compliance, sink, now)
                    .await?;
                // Installments moved later may take the loan back to an earlier bucket.
                self.review_collection(false, services, sink, now).await
            }
            C::WaiveCharges {
                officer_id,
                kind,
                amount,
                reason,
            } => {
                let four_eyes = services.catalogue.waiver_four_eyes_above();
                self.waive_charges(officer_id, kind, amount, reason, four_eyes, sink, now)
                    .await
            }
            C::RequestPaymentPlan { reason } => self.request_payment_plan(reason, sink, now).await,
            C::ProposePaymentPlan {
                officer_id,
                request,
            } => {
                self.propose_payment_plan(officer_id, request, sink, now)
                    .await
            }
            C::ApprovePaymentPlan { officer_id } => {
                self.approve_payment_plan(officer_id, sink, now).await
            }
            C::SignPaymentPlan {
                accepted_total,
                signature,
            } => {
                self.sign_payment_plan(accepted_total, signature, sink, now)
                    .await?;
                // The plan cures what was late: the loan goes back to its bucket now.
                self.review_collection(false, services, sink, now).await
            }
            _ => unreachable!("`handle` routes only collection commands here"),
        }
    }

    /// `LogContact` (P15): the contact recorded, or its refusal recorded and answered.
    pub(super) async fn log_contact(
        &mut self,
        contact: Contact,
        services: &OrderServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Err(self.wrong_status("log a collection contact on"));
        }
        check_length("note", &contact.note, MAX_NOTE_CHARS)?;
        match (&contact.channel, &contact.template) {
            (ContactChannel::Sms, Some(id)) if services.catalogue.collection_template(id) => {}
            (ContactChannel::Sms, _) => {
                return Err(InvalidInput::new(
                    "template",
                    "pick one of the lender's collection texts: officers do not type texts to borrowers",
                )
                .into())
            }
            (_, Some(_)) => {
                return Err(InvalidInput::new("template", "only a text message has a template").into())
            }
            (_, None) => {}
        }
        if let Some(day) = contact.next_action_on {
            if day < self.day_of(now) {
                return Err(InvalidInput::new("nextActionOn", "must not be in the past").into());
            }
        }
        let rules = services
            .compliance
            .contact_rules()
            .with_holidays(services.catalogue.public_holidays());
        let days_past_due = self.days_past_due(self.day_of(now));
        let checked = if self.contactable_persons().contains(&contact.person) {
            rules.check(
                contact.person,
                now,
                days_past_due,
                self.collection.any_hours,
                self.collection.last_contact_on,
            )
        } else {
            Err(ContactBreach::Person)
        };
        match checked {
            Ok(()) => {
                let event = OrderEvent::ContactLogged {
                    officer_id: contact.officer_id,
                    channel: contact.channel,
                    person: contact.person,
                    outcome: contact.outcome,
                    note: contact.note,
                    next_action_on: contact.next_action_on,
                    template: contact.template,
                    days_past_due,
                    local_day: rules.local_date(now),
                    at: now,
                };
                sink.write(event, self).await;
            }
            Err(breach) => {
                let event = OrderEvent::ContactRefused {
                    officer_id: contact.officer_id,
                    channel: contact.channel,
                    person: contact.person,
                    breach,
                    days_past_due,
                    at: now,
                };
                sink.write(event, self).await;
            }
        }
        Ok(())
    }

    /// Who may be contacted about this loan's debt (P15): the borrower, and a guarantor
    /// or co-maker only when the borrower named one under a product that has them.
    /// No product has one yet, so the borrower alone; a contact logged with anyone
    /// else is refused (50002) and recorded.
    pub fn contactable_persons(&self) -> Vec<ContactPerson> {
        vec![ContactPerson::Borrower]
    }

    /// `AssignCollector`: the loan's collector (`None` unassigns); a repeat is a no-op.
    pub(super) async fn assign_collector(
        &mut self,
        collector: Option<Uuid>,
        by: Uuid,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Err(self.wrong_status("assign a collector to"));
        }
        if self.collection.collector == collector {
            return Ok(());
        }
        let event = OrderEvent::CollectorAssigned {
            collector,
            by,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `ChooseContactHours`: the borrower states whether other hours suit them; a
    /// repeat is a no-op.
    pub(super) async fn choose_contact_hours(
        &mut self,
        any_hours: bool,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Err(self.wrong_status("choose contact hours for"));
        }
        if self.collection.any_hours == any_hours {
            return Ok(());
        }
        sink.write(OrderEvent::ContactHoursChosen { any_hours, at: now }, self)
            .await;
        Ok(())
    }

    /// `PromiseToPay` (50004 when not valid).
    pub(super) async fn promise_to_pay(
        &mut self,
        amount: Decimal,
        date: NaiveDate,
        by: PromiseMaker,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if self.status != OrderStatus::Disbursed {
            return Err(self.wrong_status("promise to pay on"));
        }
        let today = self.day_of(now);
        let invalid = |why: String| Err(OrderError::InvalidPromise { why });
        if let Some(open) = &self.collection.promise {
            return invalid(format!(
                "a promise to pay {} by {} is open",
                open.amount, open.date
            ));
        }
        let owed = self.loan()?.payoff(today).amount;
        if amount <= Decimal::ZERO || amount.scale() > 2 || amount > owed {
            return invalid(format!("the amount must be more than 0 and at most {owed}"));
        }
        let last = today
            .checked_add_days(Days::new(MAX_PROMISE_DAYS))
            .unwrap_or(today);
        if date < today || date > last {
            return invalid(format!("the date must be from {today} to {last}"));
        }
        let event = OrderEvent::PromiseMade {
            amount,
            date,
            by,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Assigns a collection event.
    pub(super) fn apply_collection_event(&mut self, event: OrderEvent) {
        let collection = &mut self.collection;
        match event {
            OrderEvent::DelinquencyChanged {
                bucket, leaves_at, ..
            } => {
                collection.bucket = Some(bucket);
                collection.bucket_leaves_at = leaves_at;
            }
            OrderEvent::ContactLogged {
                local_day,
                outcome,
                next_action_on,
                at,
                ..
            } => {
                collection.last_contact_on = Some(local_day);
                collection.last_contact = Some((at, outcome));
                collection.next_action_on = next_action_on;
            }
            OrderEvent::ContactRefused { .. } => {}
            OrderEvent::CollectorAssigned { collector, .. } => collection.collector = collector,
            OrderEvent::ContactHoursChosen { any_hours, .. } => collection.any_hours = any_hours,
            OrderEvent::PromiseMade {
                amount,
                date,
                by,
                at,
            } => {
                collection.promise = Some(Promise {
                    amount,
                    date,
                    by,
                    made_at: at,
                    paid: Decimal::ZERO,
                });
            }
            OrderEvent::PromiseSettled { .. } => collection.promise = None,
            _ => unreachable!("`apply` routes only collection events here"),
        }
    }

    /// Counts a repayment that arrived at `at` towards the open promise.
    pub(super) fn credit_promise(&mut self, amount: Decimal, at: DateTime<Utc>) {
        let day = self.day_of(at);
        if let Some(promise) = &mut self.collection.promise {
            if at >= promise.made_at && day <= promise.date {
                promise.paid += amount;
            }
        }
    }
}

/// The refusal a recorded `ContactRefused` is answered with (50001, 50002).
pub fn contact_refusal(breach: &ContactBreach) -> OrderError {
    match breach {
        ContactBreach::Hours { window } => OrderError::ContactHours {
            window: window.clone(),
        },
        ContactBreach::Person => OrderError::ContactPerson,
    }
}
