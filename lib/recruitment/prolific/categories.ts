/** Prolific's words for rejections, shared by the server and the Recruitment card (no server code here). */

/** Prolific's rejection categories (docs, Approve or reject a submission) */
export const REJECTION_CATEGORIES = [
  "TOO_QUICKLY",
  "TOO_SLOWLY",
  "FAILED_INSTRUCTIONS",
  "INCOMP_LONGITUDINAL",
  "FAILED_CHECK",
  "LOW_EFFORT",
  "MALINGERING",
  "NO_CODE",
  "BAD_CODE",
  "NO_DATA",
  "UNSUPP_DEVICE",
  "OTHER",
] as const;
export type RejectionCategory = (typeof REJECTION_CATEGORIES)[number];
/** Prolific refuses a rejection message shorter than this */
export const MIN_REJECTION_MESSAGE = 100;

export const REJECTION_CATEGORY_LABELS: Record<RejectionCategory, string> = {
  TOO_QUICKLY: "Too quickly",
  TOO_SLOWLY: "Too slowly",
  FAILED_INSTRUCTIONS: "Failed instructions",
  INCOMP_LONGITUDINAL: "Incomplete longitudinal study",
  FAILED_CHECK: "Failed attention checks",
  LOW_EFFORT: "Low effort",
  MALINGERING: "Malingering",
  NO_CODE: "No completion code",
  BAD_CODE: "Wrong completion code",
  NO_DATA: "No data",
  UNSUPP_DEVICE: "Unsupported device",
  OTHER: "Other",
};
