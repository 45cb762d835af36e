import { z } from 'zod';

/**
 * The one catalogue of error codes: HTTP status and the specification's message for each.
 * The server answers { error: { code, message, values, details } }: the English message with its placeholders
 * filled from values, so a browser can show the message of its own catalogue for the code instead.
 */
export const ERRORS = {
  /** Body, query or parameters failed validation. */
  VALIDATION_FAILED: { status: 400, message: 'Please check the highlighted fields.' },
  /** Malformed JSON body. */
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  /** Body larger than the limit (HTTP's 413 Content Too Large). */
  BODY_TOO_LARGE: { status: 413, message: 'The request is too large.' },
  /** A JSON body that nests objects and arrays deeper than the server reads. */
  JSON_TOO_DEEP: { status: 400, message: 'The request body is nested too deeply: at most 64 levels are allowed.' },
  /** Not signed in, or the session ended. */
  NOT_AUTHENTICATED: { status: 401, message: 'User not authenticated' },
  /** Signed in, but the session is locked by inactivity: unlock first. */
  SESSION_LOCKED: { status: 423, message: 'Session locked. Unlock to continue.' },
  /** Missing or wrong CSRF token on a state-changing request. */
  CSRF_FAILED: { status: 403, message: 'Your session token is out of date. Reload the page and try again.' },
  /** The user lacks the permission the route declares. */
  FORBIDDEN: { status: 403, message: "You don't have permission to access this page." },
  /** Any write by a demo user (seed 000 section 4, Demo mode). */
  DEMO_READ_ONLY: { status: 403, message: 'Demo mode: Changes are not saved' },
  /** Demo users may not create pharmacies. */
  DEMO_CANNOT_CREATE_PHARMACY: { status: 403, message: 'Demo users cannot create pharmacies' },
  /** Unknown id, or an id of another tenant (never reveal which). */
  NOT_FOUND: { status: 404, message: 'Not found' },
  PHARMACY_NOT_FOUND: { status: 404, message: 'Pharmacy not found' },
  NO_PHARMACY_CONTEXT: { status: 400, message: 'No pharmacy context available' },
  /** Conflicts: duplicates, stale state. */
  CONFLICT: { status: 409, message: 'This conflicts with existing data.' },
  DUPLICATE_EMAIL: { status: 409, message: 'An account with this email already exists.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  /** Two changes met at the same moment and this one could not be applied twice over (retried once already). */
  BUSY_TRY_AGAIN: { status: 409, message: 'Someone else changed this at the same moment. Please try again.' },
  /** A row the request names (a branch, product, user) does not exist in this pharmacy. */
  REFERENCE_NOT_FOUND: { status: 409, message: 'Something this refers to no longer exists. Reload and try again.' },
  /** A value the database could not store (too long, out of range, not a real date). */
  VALUE_NOT_STORABLE: { status: 400, message: 'One of the values is not valid: {reason}.' },
  /** An Idempotency-Key used again for a different request. */
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was already used for a different request.' },
  /** An Idempotency-Key that is empty, too long or has characters other than letters, digits, '-' and '_'. */
  IDEMPOTENCY_KEY_INVALID: { status: 400, message: 'The Idempotency-Key header must be 1 to 100 letters, digits, - or _.' },

  // Sign-in (seed 000 section 8, Login)
  LOGIN_FIELDS_REQUIRED: { status: 400, message: 'Please enter both email and password' },
  LOGIN_INVALID_EMAIL: { status: 400, message: 'Please enter a valid email address.' },
  LOGIN_NO_ACCOUNT: { status: 401, message: 'No account found with this email address.' },
  LOGIN_INVALID_CREDENTIALS: { status: 401, message: 'Invalid email or password. Please check your credentials.' },
  LOGIN_TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many failed attempts. Please try again later or reset your password.' },
  LOGIN_DISABLED: { status: 403, message: 'This account has been disabled. Contact your administrator.' },
  LOGIN_DEACTIVATED: { status: 403, message: 'Your account has been deactivated. Contact your administrator.' },
  LOGIN_LOCKED: { status: 423, message: 'Account is temporarily locked. Please try again later.' },
  LOGIN_UNVERIFIED: {
    status: 403,
    message: 'Please verify your email before logging in. Check your inbox for the verification link.',
  },
  LOGIN_NOT_CONFIGURED: { status: 403, message: 'Account not properly configured. Please contact support.' },
  LOGIN_FAILED: { status: 500, message: 'Login failed. Please try again or contact support if the problem persists.' },

  // Google sign-in (seed 000 section 8)
  GOOGLE_ACCOUNT_NOT_FOUND: { status: 404, message: 'Account not found. Please register first.' },
  GOOGLE_CANCELLED: { status: 400, message: 'Sign-in cancelled.' },
  GOOGLE_OTHER_METHOD: { status: 409, message: 'An account already exists with this email using a different sign-in method.' },
  GOOGLE_FAILED: { status: 502, message: 'Google sign-in failed. Please try again.' },

  // Session unlock
  UNLOCK_PIN_REQUIRED: { status: 400, message: 'Please enter your PIN' },
  UNLOCK_PASSWORD_REQUIRED: { status: 400, message: 'Please enter your password' },
  UNLOCK_PIN_FORMAT: { status: 400, message: 'PIN must be at least 4 digits' },
  UNLOCK_FAILED: { status: 401, message: 'Unlock failed' },

  // Email verification and password reset (seed 002 section 8)
  VERIFY_LINK_INVALID: { status: 400, message: 'Invalid verification link. Please request a new verification email.' },
  VERIFY_LINK_USED: { status: 400, message: 'This link has expired or already been used.' },
  VERIFY_LINK_EXPIRED: { status: 400, message: 'This link has expired. Please request a new one.' },
  VERIFY_SIGN_IN_FIRST: { status: 401, message: 'Please sign in first to resend verification email.' },
  VERIFY_SEND_FAILED: { status: 502, message: 'Failed to send verification email. Please try again later.' },
  RESET_EMAIL_REQUIRED: { status: 400, message: 'Please enter your email address' },
  RESET_NO_ACCOUNT: { status: 404, message: 'No account found with this email address.' },
  RESET_TOO_MANY: { status: 429, message: 'Too many requests. Please try again later.' },
  RESET_SEND_FAILED: { status: 502, message: 'Failed to send reset email. Please try again.' },
  PASSWORD_REQUIREMENTS: { status: 400, message: 'Password does not meet requirements' },
  PASSWORDS_DO_NOT_MATCH: { status: 400, message: 'Passwords do not match' },

  // Subscription (seed 000 section 8)
  SUBSCRIPTION_NOT_ACTIVE: { status: 402, message: 'Subscription not active' },
  LIMIT_EXCEEDED: { status: 402, message: 'Limit exceeded. Plan allows {limit}, current usage: {usage}' },
  NOT_IN_TRIAL: { status: 409, message: 'Not in trial period' },
  NO_ACTIVE_LICENSE: { status: 409, message: 'No active license' },

  // Users and staff
  /** A member may give only the access they hold themselves (role defaults, explicit list and POS access). */
  GRANT_EXCEEDS_OWN: { status: 403, message: 'You cannot give a member more access than you have yourself.' },
  /** A member may change only members whose access is within their own. */
  MEMBER_OUTRANKS: { status: 403, message: 'You cannot change a member who has more access than you.' },

  // Branches
  BRANCH_NOT_ALLOWED: { status: 403, message: 'You are not allowed to work in this branch.' },
  POS_BRANCH_SWITCH_DENIED: { status: 403, message: 'Only administrators can change branches in POS.' },
  BRANCH_NAME_TAKEN: { status: 409, message: 'A branch with this name already exists.' },
  LAST_BRANCH: { status: 409, message: 'A pharmacy needs at least one active branch.' },

  // Settings
  SETTINGS_SAVE_FAILED: { status: 500, message: 'Failed to save settings' },

  // Stock (issue 3)
  INSUFFICIENT_STOCK: { status: 409, message: 'Insufficient stock for {product}. Available: {available}, Requested: {requested}' },
  SAME_BRANCH_TRANSFER: { status: 400, message: 'Choose a different destination branch.' },
  SKU_TAKEN: { status: 409, message: 'A product with this SKU already exists.' },
  TRANSFER_INVALID_STATE: { status: 409, message: 'This transfer cannot be {action} now: it is {status}.' },
  TRANSFER_RECEIVE_TOO_MANY: { status: 400, message: 'Cannot receive {requested} of {product}: only {remaining} in transit.' },
  /** Receiving a batch whose expiry date is already past (decision 0033): expired stock is never made sellable. */
  BATCH_EXPIRED: { status: 422, message: 'Batch {batch} expired on {expiryDate}: it cannot be received as sellable stock.' },

  // Selling: completing a sale at the till (seed 001 section 5, decision 0023)
  SALE_CART_EMPTY: { status: 400, message: 'Cart is empty' },
  SALE_PAYMENT_METHOD_REQUIRED: { status: 400, message: 'Please select payment method' },
  SALE_AMOUNT_REQUIRED: { status: 400, message: 'Please enter amount paid' },
  SALE_AMOUNT_BELOW_TOTAL: { status: 400, message: 'Amount paid is less than total (or use Credit payment method)' },
  SALE_EXACT_AMOUNT_REQUIRED: { status: 400, message: '{method} requires exact amount: {total}' },
  SALE_STOCK_EXCEEDED: { status: 409, message: 'Some items exceed available stock' },
  SALE_DDA_PRESCRIPTION_REQUIRED: { status: 400, message: 'DDA products need prescription information' },
  SALE_DDA_CLIENT_REQUIRED: { status: 400, message: 'DDA products require a registered customer to be selected' },
  SALE_DATE_IN_FUTURE: { status: 400, message: 'Sale date cannot be in the future. Only today and past dates are allowed.' },
  SALE_DATE_TOO_OLD: { status: 400, message: 'Sale date cannot be more than 30 days in the past' },
  SALE_REFILL_DAYS_INVALID: { status: 400, message: 'Please enter a valid number of days (1-365).' },
  SALE_REFILL_CLIENT_REQUIRED: { status: 400, message: 'Please select a client for refill reminders' },
  SALE_PAYMENT_METHOD_UNKNOWN: { status: 400, message: '{method} is not a payment method of this pharmacy.' },
  SALE_CREDIT_CLIENT_REQUIRED: { status: 400, message: 'Credit sales need a registered customer.' },
  SALE_PRODUCT_NO_PRICE: { status: 409, message: 'Cannot add {product}: No selling price set' },
  SALE_PRODUCT_INACTIVE: { status: 409, message: 'Cannot add {product}: Product is inactive' },
  SALE_WHOLE_PACKAGES: { status: 400, message: 'Cannot switch to whole packages. Not enough stock.' },
  SALE_PRICE_CHANGED: { status: 409, message: 'The price of {product} is now {price}. Check the cart and try again.' },
  SALE_TOTAL_CHANGED: { status: 409, message: 'The total is now {total}. Check the cart and try again.' },
  SALE_PRICE_OVERRIDE_DENIED: { status: 403, message: 'You may not change prices at the till.' },
  SALE_DISCOUNT_DENIED: { status: 403, message: 'You may not give discounts at the till.' },
  SALE_DISCOUNT_ABOVE_MAX: { status: 400, message: 'The discount cannot be more than {max} % of the subtotal.' },
  SALE_LOW_MARGIN: { status: 400, message: 'Low margin items detected. Cannot complete sale.' },
  SALE_TOO_LARGE: { status: 400, message: 'The sale is too large: split it into several sales.' },
  SALE_ID_TAKEN: { status: 409, message: 'A different sale was already recorded with this id.' },

  // Suspended sales and stock reservations (seed 001 sections 4, 5 and 8, decision 0028)
  SUSPEND_CLIENT_REQUIRED: { status: 400, message: 'Please select a registered customer before suspending the sale.' },
  SUSPEND_CLIENT_MISSING: { status: 400, message: 'Client is required' },
  SUSPEND_NO_ITEMS: { status: 400, message: 'No items to reserve' },
  SUSPEND_AMOUNT_ABOVE_TOTAL: { status: 400, message: 'Amount paid cannot exceed total' },
  SUSPEND_LOW_MARGIN: { status: 400, message: 'Low margin items detected. Cannot suspend sale.' },
  SUSPEND_PRODUCT_NOT_FOUND: { status: 404, message: 'Product {product} not found' },
  SUSPENDED_ID_TAKEN: { status: 409, message: 'A different suspended sale was already recorded with this id.' },
  SUSPENDED_SALE_GONE: { status: 409, message: 'This suspended sale was already completed or cancelled.' },
  SUSPENDED_SALE_OTHER_BRANCH: { status: 409, message: 'This suspended sale belongs to {branch}: switch to that branch to complete it.' },

  // Clients (seed 001 section 5, New client)
  CONTACT_NAME_REQUIRED: { status: 400, message: 'Client name is required' },
  CONTACT_PHONE_REQUIRED: { status: 400, message: 'Phone number is required' },
  CONTACT_LOCATION_REQUIRED_DDA: { status: 400, message: 'Location is required for DDA products' },
  CONTACT_ADDRESS_REQUIRED_DDA: { status: 400, message: 'Full address is required for DDA products' },
  // Contacts screen (seed 002 sections 3 and 5; decision 0040)
  CONTACT_NAME_MISSING: { status: 400, message: 'Name is required' },
  CONTACT_TYPE_UNKNOWN: { status: 400, message: 'Type must be customer, supplier or other.' },
  CONTACT_CREDIT_TERMS_UNKNOWN: { status: 400, message: "Credit terms must read like '30 days', '30d', '2 months', '2m', 'net 30' or a number of days." },
  CONTACT_CREDIT_TERMS_TOO_LONG: { status: 400, message: 'Credit terms must be at most 365 days.' },
  // Supplier payments (seed 002 sections 5 and 8; decision 0041)
  SUPPLIER_PAYMENT_MISSING_FIELDS: { status: 400, message: 'Missing required payment fields' },
  SUPPLIER_PAYMENT_AMOUNT_INVALID: { status: 400, message: 'The amount must be more than KES 0.00.' },
  SUPPLIER_PAYMENT_REFERENCE_REQUIRED: { status: 400, message: 'A reference is required for {method} payments.' },
  SUPPLIER_PAYMENT_DATE_IN_FUTURE: { status: 400, message: 'The payment date cannot be in the future.' },
  SUPPLIER_PAYMENT_INVOICE_UNKNOWN: { status: 404, message: 'The invoice chosen is not an open purchase of this supplier.' },
  CONTACT_IMPORT_INVALID: { status: 400, message: 'No contacts were imported: {count} row problem(s). Correct the file and import it again.' },

  // Expenses recorded at the till (seed 001 section 5, Expense; decision 0027)
  EXPENSE_DATE_IN_FUTURE: { status: 400, message: 'The expense date cannot be in the future.' },

  // Sale returns, voids and customer payments (issue 10 items 8 and 10, decision 0038)
  SALE_RETURN_LINE_UNKNOWN: { status: 400, message: 'Line {line} is not on this sale.' },
  SALE_RETURN_TOO_MANY: { status: 409, message: 'Only {available} of {product} can be returned (sold {sold}, returned {returned}).' },
  SALE_NOT_RETURNABLE: { status: 409, message: 'This sale is {status}: nothing is left to return.' },
  SALE_REFUND_METHOD_REQUIRED: { status: 400, message: 'Choose how the refund is paid.' },
  SALE_VOID_NOT_TODAY: { status: 409, message: 'Only a sale made today can be voided; use a return for older sales.' },
  SALE_VOID_NOT_ALLOWED: { status: 409, message: 'A sale with returns or later payments cannot be voided; use a return.' },
  SALE_ALREADY_VOIDED: { status: 409, message: 'This sale was already voided.' },
  CUSTOMER_PAYMENT_NOTHING_OWED: { status: 409, message: '{client} owes nothing.' },
  CUSTOMER_PAYMENT_ABOVE_BALANCE: { status: 409, message: 'The payment of {amount} is more than {client} owes ({balance}).' },
  CUSTOMER_PAYMENT_ON_CREDIT: { status: 400, message: 'A payment of credit sales cannot itself be on credit.' },

  // Buying the licence by M-Pesa (seed 002 section 8, Payment service and purchase; issue 11)
  PAYMENT_EMAIL_TAKEN: { status: 409, message: 'This email is already registered. Please login or use a different email.' },
  PAYMENT_INVALID_PLAN: { status: 400, message: 'Invalid plan selection' },
  PAYMENT_RATE_LIMITED: { status: 429, message: 'Too many payment attempts. Please wait a moment and try again.' },
  PAYMENT_SERVICE_MISCONFIGURED: { status: 503, message: 'Payment service is not properly configured. Please contact support.' },
  PAYMENT_NOT_FOUND: { status: 404, message: 'Payment not found' },
  PAYMENT_NOT_COMPLETED: { status: 409, message: 'The payment was not completed. Please try again.' },
  PAYMENT_SIGNATURE_INVALID: { status: 401, message: 'Invalid signature' },
  OWNER_SETUP_INVALID: { status: 403, message: 'Missing required information. Please start over from the purchase page.' },
  OWNER_ALREADY_SET_UP: { status: 409, message: 'An account with this email already exists. Please login instead.' },
  SUBSCRIPTION_NOT_IN_TRIAL: { status: 409, message: 'Not in trial period' },
  SUBSCRIPTION_NO_LICENSE: { status: 409, message: 'No active license' },

  // Demo registration and access, and the operator's actions (seed 002 sections 5 and 8; issue 11 items 5 and 8)
  DEMO_FIELDS_REQUIRED: { status: 400, message: 'Please fill in all required fields' },
  DEMO_INVALID_EMAIL: { status: 400, message: 'Please enter a valid email address' },
  DEMO_INVALID_PHONE: { status: 400, message: 'Please enter a valid phone number' },
  DEMO_EMAIL_REGISTERED: { status: 409, message: 'This email is already registered. Click Already Registered? below to access the demo.' },
  DEMO_EMAIL_REQUIRED: { status: 400, message: 'Please enter your email' },
  DEMO_NO_ACCOUNT: { status: 404, message: 'No demo account found with this email. Please register first.' },
  DEMO_NOT_REGISTERED: { status: 404, message: 'No demo registration found. Please register first.' },
  DEMO_VERIFY_FIRST: { status: 403, message: 'Please verify your email before accessing the demo.' },
  DEMO_SIGN_IN_FAILED: { status: 400, message: 'Failed to sign in. Please try requesting a new link.' },
  DEMO_RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  ADMIN_PHARMACY_INACTIVE: { status: 409, message: 'This pharmacy is deactivated. Reactivate it first.' },

  INTERNAL: { status: 500, message: 'An unexpected error occurred.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Fill {placeholders} of a catalogue message. */
export function formatMessage(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** The JSON shape of every error response (ARCHITECTURE section 6). */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; values?: Record<string, string | number>; details?: unknown };
}

// ------------------------------------------------------------------------------------------- field sentences

/**
 * Validation messages a person reads (issue 8 item 4, decision 0033): one sentence about the field by its label,
 * never zod's wording ('Too big: expected number to be <=100') or a path ('items.0.delta'). The domain's schemas
 * build their messages from these templates; the web shows the sentence beside the field.
 */
export const FIELD_MESSAGES = {
  required: '{label} is required.',
  number: '{label} must be a number.',
  wholeNumber: '{label} must be a whole number.',
  between: '{label} must be between {min} and {max}{unit}.',
  atLeast: '{label} must be at least {min}{unit}.',
  atMost: '{label} must be at most {max}{unit}.',
  money: '{label} must be an amount in KSh of 0 or more with at most 2 decimals.',
  choose: 'Choose {label}.',
  notNegative: '{label} cannot be negative.',
  tooLarge: '{label} must be at most {max}{unit}.',
} as const;

/** The sentence of a template for a field; `unit` is appended to numbers as written (' %', ' pieces'). */
export function fieldMessage(kind: keyof typeof FIELD_MESSAGES, label: string, values: Record<string, string | number> = {}): string {
  const unit = values.unit === undefined ? '' : String(values.unit);
  const shown = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : value]));
  const sentence = formatMessage(FIELD_MESSAGES[kind], { ...shown, label, unit });
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * A number field whose every message is a sentence by its label: a whole number when `whole`, between min and
 * max (unit as the person reads it, e.g. ' %').
 */
export function numberField(label: string, min: number, max: number, options: { whole?: boolean; unit?: string } = {}) {
  const range = fieldMessage('between', label, { min, max, unit: options.unit ?? '' });
  const base = z.number({ error: fieldMessage(options.whole ? 'wholeNumber' : 'number', label) });
  return (options.whole ? base.int(fieldMessage('wholeNumber', label)) : base).min(min, range).max(max, range);
}
