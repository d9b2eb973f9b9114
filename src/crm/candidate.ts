/**
 * The validated Match Candidate (interface.md 2.1-2.6): what `validateCandidate` returns and
 * the person model consumes. Absent properties are `undefined`; every present value is
 * trimmed, its codes canonical (upper case codes, "Home"-style address types), and checked
 * against the context's settings.
 */
import type { ContextSettings } from './settings.js';
import type {
  AddressType,
  ContextName,
  DeviceType,
  EmailType,
  PersonScalarName,
  PhoneOptInStatus,
  PhoneType,
  StoredSelfReported,
  SubscriptionStatus,
} from '../store/index.js';

export interface ValidEmail {
  readonly email: string;
  /** Lower-cased address: the "not added twice" key. */
  readonly key: string;
  readonly type?: EmailType;
  readonly isPreferred?: boolean;
  readonly isSubscribed?: boolean;
  readonly subscriptionStatus?: SubscriptionStatus;
}

export interface ValidPhone {
  /** National significant number, digits only. */
  readonly phoneNumber: string;
  readonly e164: string;
  readonly countryCode: string | null;
  readonly dialingPrefix: string;
  readonly ext: string | null;
  readonly phoneType?: PhoneType;
  readonly deviceType?: DeviceType;
  readonly isPreferred?: boolean;
  readonly phoneOptInStatus?: PhoneOptInStatus;
  /** 1..4, resolved from `statusId` or `statusName`. */
  readonly isCellStatusId?: number;
}

export interface ValidAddress {
  readonly addressLine1: string | null;
  readonly addressLine2: string | null;
  readonly addressLine3: string | null;
  readonly city: string | null;
  readonly stateOrProvince: string | null;
  readonly zipOrPostalCode: string | null;
  /** Upper case ISO alpha-2; the context's default country when not supplied. */
  readonly countryCode: string;
  /** Default Home when not supplied. */
  readonly type: AddressType;
}

export interface ValidIdentifier {
  /** The type as spelled in the context's list ("dwid", "StateFileID"). */
  readonly type: string;
  readonly externalId: string;
}

export interface ValidCustomFieldValue {
  readonly customFieldId: number;
  readonly customFieldGroupId: number;
  /** Canonical text for the field's type ("12.5", "2024-01-31", "true"), or null to clear. */
  readonly assignedValue: string | null;
}

/** A Match Candidate that passed validation. */
export interface ValidCandidate {
  /** A positive integer crmId (or vanId) from the body, else null. Unknown ids are ignored later. */
  readonly crmId: number | null;
  /** Supplied scalar fields only. `dateOfBirth` is "YYYY-MM-DD". */
  readonly scalars: { readonly [K in PersonScalarName]?: string | number };
  /** Supplied self-reported lists only. */
  readonly selfReported: { readonly [K in keyof StoredSelfReported]?: StoredSelfReported[K] };
  readonly emails: readonly ValidEmail[];
  readonly phones: readonly ValidPhone[];
  readonly addresses: readonly ValidAddress[];
  readonly identifiers: readonly ValidIdentifier[];
  readonly customFieldValues: readonly ValidCustomFieldValue[];
}

/** Result of validation: the candidate, or every issue found. */
export type CandidateResult =
  | { readonly ok: true; readonly value: ValidCandidate }
  | { readonly ok: false; readonly code: 'BAD_REQUEST' | 'INVALID_PARAMETER'; readonly issues: readonly import('./errors.js').ValidationIssue[] };

/** What a validation needs to know about where the call lands. */
export interface ValidationContext {
  readonly context: ContextName;
  readonly settings: ContextSettings;
}

/** Most items accepted in one collection of a body (the contract shows no limit; ours). */
export const MAX_ITEMS = 100;
