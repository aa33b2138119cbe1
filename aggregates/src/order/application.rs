//! The Order's application: applying for a loan, signed and checked against the
//! product and the compliance profile (P5, P7), and the borrower's free cancellation
//! before the payout (P6).

use super::aggregate::Order;
use super::commands::OrderCommand;
use super::errors::OrderError;
use super::events::OrderEvent;
use super::status::OrderStatus;
use crate::pricing::affordability::max_affordable;
use crate::pricing::{disclose, Disclosure, LoanTerms, Product};
use crate::services::OrderServices;
use crate::types::InvalidInput;
use chrono::{DateTime, Utc};
use cqrs_es::event_sink::EventSink;
use rust_decimal::Decimal;

/// An application priced (P5): the product, the terms of the period chosen, and the
/// disclosure of the amount under them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// The product priced (its name is what the order records; its income share the
    /// affordability rule's).
    pub product: Product,
    /// The terms the order would be bound by.
    pub terms: LoanTerms,
    /// The cost disclosure the borrower sees before signing.
    pub disclosure: Disclosure,
}

/// The quote of `amount` over `period_days` of product `app_id`: the product exists
/// (40007) and is enabled, the period and the amount are ones it offers (10004), the
/// loan fits the compliance profile whatever the configuration says (P5), and the
/// disclosure names the catalogue's lender (P14). The one pricing of an application:
/// `/loan/quote` answers its disclosure, `ApplyForLoan` records its terms and
/// disclosure, so what the borrower saw is what is signed.
pub fn quote(
    services: &OrderServices,
    app_id: i64,
    amount: Decimal,
    period_days: u32,
) -> Result<Quote, OrderError> {
    let product = services
        .catalogue
        .product(app_id)
        .ok_or(OrderError::ProductNotFound)?;
    if !product.enabled {
        return Err(OrderError::ProductDisabled);
    }
    let mut terms = product.terms_for(period_days)?;
    // The loan's days are the profile's local days (issue 53).
    terms.time_zone = Some(services.compliance.contact_rules().time_zone);
    product.check_amount(amount)?;
    // P5: checked again at apply, whatever the configuration says.
    services
        .compliance
        .check_loan(amount, &terms)
        .map_err(OrderError::Compliance)?;
    let disclosure = disclose(amount, &terms, &services.catalogue.lender());
    Ok(Quote {
        product,
        terms,
        disclosure,
    })
}

/// The affordability rule of `product` (issue 52): the repayments of `amount` under
/// `terms` due in any 30 days fit the product's share of `monthly_income`
/// (`pricing::affordability`). 40010 names the largest amount that fits, if any.
fn check_affordable(
    product: &Product,
    amount: Decimal,
    terms: &LoanTerms,
    monthly_income: Option<Decimal>,
) -> Result<(), OrderError> {
    if product.max_income_share_pct.is_some() && monthly_income.is_none() {
        return Err(OrderError::IncomeNotDeclared);
    }
    let max = max_affordable(product, terms, monthly_income);
    if max.is_some_and(|max| amount <= max) {
        return Ok(());
    }
    Err(OrderError::Unaffordable { max })
}

impl Order {
    /// `ApplyForLoan`: the signed application, priced and disclosed by [`quote`] (P5,
    /// P7).
    pub(super) async fn apply_for_loan(
        &mut self,
        command: OrderCommand,
        services: &OrderServices,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        let OrderCommand::ApplyForLoan {
            order_id,
            user_id,
            app_id,
            amount,
            period_days,
            signature,
            applicant_name,
            terms_version,
            monthly_income,
            product_version,
        } = command
        else {
            unreachable!("called with ApplyForLoan only")
        };
        if self.id == Some(order_id) {
            return Ok(()); // the loan workflow repeating its step after a crash
        }
        if self.id.is_some() {
            return Err(OrderError::AlreadyApplied);
        }
        // P7: nothing is created before the borrower has signed.
        let signature =
            signature.ok_or_else(|| InvalidInput::new("signature", "please sign first"))?;
        if applicant_name.trim().is_empty() {
            return Err(InvalidInput::new("realName", "is required").into());
        }
        let Quote {
            product,
            terms,
            disclosure,
        } = quote(services, app_id, amount, period_days)?;
        // What the borrower is shown is true: the disclosure they saw was priced under
        // this version, or they must look again (issue 55).
        if product_version.is_some_and(|shown| shown != product.version) {
            return Err(InvalidInput::new(
                "productVersion",
                "the product's terms changed since you saw them; please check the new cost \
                 disclosure",
            )
            .into());
        }
        check_affordable(&product, amount, &terms, monthly_income)?;
        let event = OrderEvent::LoanApplied {
            order_id,
            user_id,
            app_id,
            product_name: product.name,
            amount,
            terms,
            disclosure,
            terms_version,
            signature,
            applicant_name,
            applied_at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// `Cancel`: the borrower cancels under review or before withdrawing, free (P6).
    pub(super) async fn cancel(
        &mut self,
        sink: &EventSink<Self>,
        now: DateTime<Utc>,
    ) -> Result<(), OrderError> {
        if !(self.status.is_under_review() || self.status == OrderStatus::Approved) {
            return Err(self.wrong_status("cancel"));
        }
        self.ensure_no_payout_in_flight()?;
        // P6: no fee of any kind; the undrawn balance is simply released.
        let event = OrderEvent::LoanCancelled {
            released_amount: self.balance,
            at: now,
        };
        sink.write(event, self).await;
        Ok(())
    }

    /// Assigns an application or cancellation event.
    pub(super) fn apply_application_event(&mut self, event: OrderEvent) {
        match event {
            OrderEvent::LoanApplied {
                order_id,
                user_id,
                app_id,
                product_name,
                amount,
                terms,
                disclosure,
                terms_version,
                signature,
                applicant_name,
                applied_at,
            } => {
                self.id = Some(order_id);
                self.user_id = user_id;
                self.app_id = app_id;
                self.product_name = product_name;
                self.status = OrderStatus::Submitted;
                self.applied_amount = amount;
                self.terms = Some(terms);
                self.disclosure = Some(disclosure);
                self.terms_version = terms_version;
                self.signature = Some(signature);
                self.applicant_name = applicant_name;
                self.applied_at = Some(applied_at);
            }
            OrderEvent::LoanCancelled { .. } => {
                self.status = OrderStatus::Cancelled;
                self.balance = Decimal::ZERO;
            }
            _ => unreachable!("`apply` routes only application events here"),
        }
    }
}
