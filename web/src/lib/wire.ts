/**
 * The api's wire shapes, generated from its OpenAPI document (`src/lib/api-schema.ts`,
 * `scripts/contract`): request bodies and answers are typed from here, so a change on
 * the server that the app does not follow fails the type check (issue 17 item 4).
 */
import type { components } from './api-schema';

/** Every schema of the document by name (`Wire['RegisterBody']`, ...). */
export type Wire = components['schemas'];

/** `T` with its optional `null`s dropped: the app sends absent fields, never `null`. */
export type Sent<T> = { [K in keyof T]: Exclude<T[K], null> };
