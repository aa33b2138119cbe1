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
