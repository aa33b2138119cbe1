//! Staff roles and what each may do (issue 55): least privilege, one table.
//!
//! A role is a job (`reviewer`, `collector`, `finance`, `compliance`, `admin`); a
//! permission is a group of console calls (`crate::http::route_table::CONSOLE_CALLS`
//! names the one each call needs). A staff member may hold several roles and may then
//! do what any of them allows; the four-eyes rules (50006) still compare people, not
//! roles, so one person holding two roles is still one pair of eyes.
//!
//! The grants follow the duties the issue assigns: a `reviewer` cannot erase or move
//! money, a `collector` cannot approve a loan, an `admin` manages staff and cannot
//! touch a loan or a borrower's data.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A staff role. Wire and stored name: the lower-case word.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The review queue, first and final review, refusals, resubmission requests.
    Reviewer,
    /// Late loans: the collections queue, contacts, promises, payment plans.
    Collector,
    /// Money: manual repayments, waivers, charge-offs and their reversal; the ledger and
    /// the book.
    Finance,
    /// Identity decisions, holds, data exports and erasure, the audit trail.
    Compliance,
    /// Staff accounts and their roles, the audit trail, product changes (proposed by one
    /// admin, approved by another).
    Admin,
}

/// Every role, in the order the console lists them.
pub const ALL_ROLES: [Role; 5] = [
    Role::Reviewer,
    Role::Collector,
    Role::Finance,
    Role::Compliance,
    Role::Admin,
];

/// A group of console calls one role or more may make. Wire name: [`Permission::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Permission {
    /// Read an order: its detail, replayed history and documents.
    OrdersRead,
    /// The review queue and its decisions.
    Review,
    /// Read a borrower's profile and ID photos.
    BorrowersRead,
    /// Verify or reject a borrower's identity.
    IdentityDecide,
    /// Place and lift holds on an account.
    Holds,
    /// Export a borrower's personal data, read the export log, erase a borrower.
    PersonalData,
    /// The collections queue and record, contacts, assignment, promises, payment plans.
    Collections,
    /// Record a manual repayment, waive fees, charge off and reverse a charge-off.
    Money,
    /// The journal, the trial balance and the book by bucket.
    Ledger,
    /// Create, disable and enable staff accounts, assign roles, reset passwords.
    Staff,
    /// Read and export the audit trail of staff actions.
    AuditTrail,
    /// The products as data: read every version, propose a change, approve or reject
    /// another's proposal (maker-checker; issue 55).
    Settings,
}

impl Permission {
    /// Every permission.
    pub const ALL: [Permission; 12] = [
        Self::OrdersRead,
        Self::Review,
        Self::BorrowersRead,
        Self::IdentityDecide,
        Self::Holds,
        Self::PersonalData,
        Self::Collections,
        Self::Money,
        Self::Ledger,
        Self::Staff,
        Self::AuditTrail,
        Self::Settings,
    ];

    /// The name in refusals (50005) and in the OpenAPI document (`x-permission`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::OrdersRead => "orders.read",
            Self::Review => "orders.review",
            Self::BorrowersRead => "borrowers.read",
            Self::IdentityDecide => "identity.decide",
            Self::Holds => "accounts.hold",
            Self::PersonalData => "personalData",
            Self::Collections => "collections",
            Self::Money => "money",
            Self::Ledger => "ledger",
            Self::Staff => "staff",
            Self::AuditTrail => "audit.read",
            Self::Settings => "settings",
        }
    }

    /// The roles that hold this permission, in [`ALL_ROLES`] order.
    pub fn roles(self) -> Vec<Role> {
        ALL_ROLES
            .into_iter()
            .filter(|role| role.permissions().contains(&self))
            .collect()
    }
}

impl fmt::Display for Permission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Role {
    /// The stored and wire name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Reviewer => "reviewer",
            Self::Collector => "collector",
            Self::Finance => "finance",
            Self::Compliance => "compliance",
            Self::Admin => "admin",
        }
    }

    /// The role named `name`, if any.
    pub fn parse(name: &str) -> Option<Self> {
        ALL_ROLES
            .into_iter()
            .find(|role| role.name() == name.trim())
    }

    /// What this role may do: the one table of grants.
    pub const fn permissions(self) -> &'static [Permission] {
        use Permission::*;
        match self {
            Self::Reviewer => &[OrdersRead, Review, BorrowersRead],
            Self::Collector => &[OrdersRead, BorrowersRead, Collections],
            Self::Finance => &[OrdersRead, Money, Ledger],
            Self::Compliance => &[
                OrdersRead,
                BorrowersRead,
                IdentityDecide,
                Holds,
                PersonalData,
                AuditTrail,
            ],
            Self::Admin => &[Staff, AuditTrail, Settings],
        }
    }
}

/// A set of roles as stored: the names joined by commas, in [`ALL_ROLES`] order, each once.
pub fn roles_text(roles: &[Role]) -> String {
    let mut sorted = roles.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted
        .iter()
        .map(|role| role.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// The roles of a stored set; unknown names (none are written) are skipped.
pub fn parse_roles(text: &str) -> Vec<Role> {
    text.split(',').filter_map(Role::parse).collect()
}

/// Whether a staff member holding the stored `roles` may use `permission`.
pub fn allows(roles: &str, permission: Permission) -> bool {
    parse_roles(roles)
        .into_iter()
        .any(|role| role.permissions().contains(&permission))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_duties_the_issue_names_are_kept_apart() {
        // A reviewer cannot erase, a collector cannot approve, an admin cannot move money.
        assert!(!allows("reviewer", Permission::PersonalData));
        assert!(!allows("collector", Permission::Review));
        assert!(!allows("admin", Permission::Money));
        assert!(!allows("admin", Permission::BorrowersRead));
        assert!(allows("collector,finance", Permission::Money));
        assert!(!allows("", Permission::OrdersRead));
    }

    #[test]
    fn a_stored_set_names_each_role_once_in_order() {
        let text = roles_text(&[Role::Admin, Role::Reviewer, Role::Admin]);
        assert_eq!(text, "reviewer,admin");
        assert_eq!(parse_roles(&text), vec![Role::Reviewer, Role::Admin]);
        assert_eq!(parse_roles("reviewer, nonsense"), vec![Role::Reviewer]);
    }

    #[test]
    fn every_permission_is_held_by_some_role() {
        for permission in Permission::ALL {
            assert!(!permission.roles().is_empty(), "{permission}");
        }
    }
}
