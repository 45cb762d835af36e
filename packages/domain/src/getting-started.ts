import { z } from 'zod';

/**
 * The dashboard's getting-started checklist (decision 0097): what a new pharmacy does before its first day of
 * selling, each step ticked from the pharmacy's own data. Owners and admins (settings:system) see it while the
 * pharmacy has not yet made its first sale (so it has no products or no sales) and nobody has dismissed it.
 */

/** The steps, in the order the card lists them. */
export const GETTING_STARTED_STEPS = ['branches', 'suppliers', 'products', 'openingStock', 'users', 'receiptSettings', 'firstSale'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

/**
 * GET /api/dashboard/getting-started and POST /api/dashboard/getting-started/dismiss (settings:system).
 * steps: each true when done —
 *   branches: a branch has its address or phone, or there is more than one branch;
 *   suppliers: a supplier contact exists; products: a product exists; openingStock: any stock was ever received
 *   (a batch exists); users: a second person belongs to the pharmacy; receiptSettings: the settings give the phone,
 *   address or receipt footer the receipt prints; firstSale: a sale exists.
 * show: the card is shown — not dismissed and no sale yet.
 */
export const gettingStartedResponseSchema = z.object({
  show: z.boolean(),
  dismissed: z.boolean(),
  steps: z.object({
    branches: z.boolean(),
    suppliers: z.boolean(),
    products: z.boolean(),
    openingStock: z.boolean(),
    users: z.boolean(),
    receiptSettings: z.boolean(),
    firstSale: z.boolean(),
  }),
});
/** POST /api/dashboard/getting-started/dismiss takes an empty object. */
export const dismissGettingStartedSchema = z.strictObject({});

export type GettingStartedResponse = z.infer<typeof gettingStartedResponseSchema>;
export type GettingStartedSteps = GettingStartedResponse['steps'];

/** Is the card shown? Until the first sale (which needs a product), unless dismissed. */
export function showGettingStarted(steps: Pick<GettingStartedSteps, 'products' | 'firstSale'>, dismissed: boolean): boolean {
  return !dismissed && !(steps.products && steps.firstSale);
}
