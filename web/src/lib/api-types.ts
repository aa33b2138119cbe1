/**
 * Names for the api's generated answer schemas (`src/lib/api-schema.ts`, from the
 * server's OpenAPI document: `scripts/contract`). No shapes are written here: each
 * name is a schema of the document, so the app reads exactly what the server answers
 * (issue 51). Units are documented on the Rust types (projections/src/views/).
 */
import type { components } from './api-schema';

type Schemas = components['schemas'];

/** The whole order (`/loan/orderInfo`, PRODUCT.md 10). */
export type Order = Schemas['OrderDoc'];
/** One installment of an order's schedule (`Order['periodViews']`). */
export type Installment = Schemas['Installment'];
/** One order of `/loan/getUserOrderList`. */
export type OrderSummary = Schemas['OrderSummary'];
/** The latest order's progress (`/loan/getLoanProgress`). */
export type Progress = Schemas['LoanProgress'];
/** One event of `/loan/orderTimeline`, oldest first. */
export type TimelineEvent = Schemas['TimelineEvent'];
/** The fields an event carries on the timeline (each event type only its own). */
export type TimelineDetail = Schemas['TimelineDetail'];
/** The borrower's own record (`/user/info`, PRODUCT.md 10 "User"). */
export type User = Schemas['UserInfo'];
/** The borrower's document as the read model keeps it (`User` without the derived fields). */
export type UserDoc = Schemas['UserDoc'];
/** A lock on the account (P4). */
export type Lock = Schemas['AccountLock'];
/** Qualification sub-statuses (PRODUCT.md 4.1). */
export type Qualification = Schemas['QualificationView'];
/** What a resubmission request can ask the borrower to fix (PRODUCT.md 12.4). */
export type ResubmissionItem = Schemas['ResubmissionItem'];
/** One product of `/loan/appList`. */
export type Product = Schemas['ProductView'];
/** A product's terms (`/loan/getPeriodConfig`). */
export type PeriodConfig = Schemas['PeriodConfigView'];
/** The questionnaire's answers (PRODUCT.md 10 "User"). */
export type Questionnaire = Schemas['Questionnaire'];
/** An emergency contact. */
export type EmergencyContact = Schemas['EmergencyContact'];
/** What the declared income allows of a product (`/loan/affordability`, issue 52). */
export type Affordability = Schemas['AffordabilityView'];
/** The cost disclosure of P5, as `/loan/quote` answers and the order keeps. */
export type Disclosure = Schemas['Disclosure'];
/** One line of a disclosure's schedule (`Disclosure['schedule']`). */
export type ScheduleLine = Schemas['ScheduledPayment'];
/** Who lends (P14). */
export type Lender = Schemas['Lender'];
/** `/loan/getAllCompanyConfigs`: the company texts and the lender's identity. */
export type CompanyConfig = Schemas['CompanyConfigs'];

// The loan officers' console (PRODUCT.md 7, `/admin/api`).

/** `/admin/api/login`. */
export type AdminLogin = Schemas['LoginData'];
/** `/admin/api/orders/queue`. */
export type QueuePage = Schemas['QueuePage'];
/** One order of the review queue, with its applicant summary. */
export type QueueItem = Schemas['QueueItem'];
/** A stored image, served to auditors by `GET {url}` (`/files/...`). */
export type ImageRef = Schemas['ImageLink'];
/** The three ID photos. */
export type IdImages = Schemas['IdImageLinks'];
/** `/admin/api/orders/detail`. */
export type OrderReview = Schemas['OrderReview'];
/** The review facts of an order (`OrderReview['review']`). */
export type Review = Schemas['Review'];
/** One event of the order detail's timeline, with the raw actor. */
export type AdminTimelineEntry = Schemas['ConsoleTimelineEntry'];
/** `/admin/api/orders/history`: every event, and the server's fold as of `atSequence`. */
export type OrderHistory = Schemas['OrderHistory'];
/** One stored event of an aggregate (an order's history, an auditor's action on a user). */
export type HistoryEvent = Schemas['HistoryEvent'];
/** `/admin/api/users/detail`. */
export type UserDetail = Schemas['UserDetail'];
/** Who a ledger account belongs to. */
export type LedgerAccount = Schemas['LedgerAccount'];
/** One posting of a journal entry: debits positive, credits negative. */
export type Posting = Schemas['PostingView'];
/** One journal entry. */
export type JournalEntry = Schemas['JournalEntryView'];
/** `/admin/api/ledger/journal`. */
export type JournalPage = Schemas['JournalPage'];
/** One account of the trial balance. */
export type AccountBalance = Schemas['AccountBalance'];
/** `/admin/api/ledger/trialBalance`: the balances sum to zero when the books balance. */
export type TrialBalance = Schemas['TrialBalance'];
/** `/admin/api/collections/queue`: late loans, most days past due first (issue 53). */
export type CollectionQueue = Schemas['CollectionQueue'];
/** One late loan of the collections queue. */
export type CollectionQueueItem = Schemas['CollectionQueueItem'];
/** `/admin/api/collections/record`: a loan's collection record. */
export type CollectionRecord = Schemas['CollectionRecord'];
/** One contact, refused contact, assignment, promise or bucket move of the record. */
export type CollectionEntry = Schemas['CollectionEntry'];
/** Where a four-eyes charge-off (or its reversal) stands after a call. */
export type FourEyes = Schemas['FourEyesData'];
/** `/admin/api/collections/book`: the book by bucket as of a moment, beside the receivable. */
export type BookAsOf = Schemas['BookAsOf'];
/** `/loan/extensionQuote`: what more time would cost, before signing (issue 53). */
export type ExtensionQuote = Schemas['ExtensionView'];
/** `/admin/api/me`: who is signed in, their roles and what those allow (issue 55). */
export type AdminMe = Schemas['Me'];
/** A staff role (`reviewer`, `collector`, `finance`, `compliance`, `admin`). */
export type StaffRole = Schemas['Role'];
/** One staff account of `/admin/api/staff/list`. */
export type StaffAccount = Schemas['StaffAccount'];
/** A one-time setup link (`/admin/api/staff/create`, `/admin/api/staff/resetPassword`), shown once. */
export type SetupLink = Schemas['SetupLink'];
/** `/admin/api/staff/setupInfo`: what the setup page shows. */
export type SetupInfo = Schemas['SetupInfo'];
/** A second factor to add to an authenticator app (`SetupInfo['secondFactor']`). */
export type SecondFactorEnrollment = Schemas['SecondFactorEnrollment'];
/** `/admin/api/staff/completeSetup`: the account opened. */
export type SetupDone = Schemas['SetupDone'];
/** `/admin/api/audit/trail`: a page of staff actions, newest first. */
export type TrailPage = Schemas['TrailPage'];
/** One staff action of the audit trail. */
export type StaffAction = Schemas['StaffAction'];
