import { z } from "zod";

/**
 * The dashboard's choices, read from the page's search params (so a link reproduces the view).
 * Pure: the client-side selectors import the option lists from here too.
 */

export const CI_METHODS = ["items", "units", "kalpha"] as const;
export type CiMethod = (typeof CI_METHODS)[number];

export const CI_METHOD_LABELS: Record<CiMethod, string> = {
  items: "Bootstrap over items and people (default; items only as the study says)",
  units: "Bootstrap over units",
  kalpha: "Krippendorff's KALPHA bootstrap",
};

export const ALPHA_LEVELS = ["nominal", "ordinal", "interval", "ratio", "custom"] as const;
export type AlphaLevelChoice = (typeof ALPHA_LEVELS)[number];

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value === "" ? undefined : value));

export const dashboardParamsSchema = z.object({
  /** tag to slice by (default "steps" when items have it) */
  tag: optionalText(60),
  /** "all" (pooled) or an annotator's user id */
  annotator: optionalText(60),
  /** agreement encoding id, e.g. "slot-ordinal" */
  encoding: optionalText(60),
  level: z.enum(ALPHA_LEVELS).optional().catch(undefined),
  ci: z.enum(CI_METHODS).optional().catch(undefined),
  /** answers to items that failed review (lib/review): left out by default */
  reviewed: z.enum(["without", "with"]).optional().catch(undefined),
  /** answers of the study's EXCLUDED participants (failed the gold rule): left out by default */
  participants: z.enum(["without", "with"]).optional().catch(undefined),
  /** answers given for the agreement plan (AGREEMENT assignments) in accuracy and calibration: left out by default (ENACT App. B.1.2) */
  plan: z.enum(["without", "with"]).optional().catch(undefined),
});
export type DashboardParamsInput = z.input<typeof dashboardParamsSchema>;

/** The search params, each invalid entry dropped (a stale link still renders). */
export type DashboardParams = z.output<typeof dashboardParamsSchema>;

export function parseDashboardParams(searchParams: Record<string, string | string[] | undefined>): DashboardParams {
  const flat: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(searchParams)) flat[key] = Array.isArray(value) ? value[0] : value;
  const parsed = dashboardParamsSchema.safeParse(flat);
  return parsed.success ? parsed.data : { tag: undefined, annotator: undefined, encoding: undefined };
}
