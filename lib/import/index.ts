/**
 * Batch import (DESIGN.md, "An import validates everything first and writes in one transaction").
 * The CLI (`yardstick import`) and the admin upload handler call readBatchSource + importBatch.
 */
export { importBatch, importBatchFromPath, IMPORT_AUDIT_ACTION, type ImportBatchOptions, type StudySelector } from "@/lib/import/import-batch";
export { readBatchSource, BatchFileError, DEFAULT_MAX_ITEMS_FILE_BYTES, type BatchInput, type BatchFileProblem } from "@/lib/import/source";
export {
  validateBatch,
  collectItems,
  DEFAULT_MAX_IMAGE_BYTES,
  DEFAULT_MAX_ERRORS,
  type BatchValidation,
  type ItemSummary,
  type ValidatedItem,
  type ValidateOptions,
} from "@/lib/import/validate";
export { readLines, DEFAULT_MAX_LINE_BYTES } from "@/lib/import/lines";
export { checkBatchPath, checkZipEntryName, type BatchPathCheck } from "@/lib/import/paths";
export { sniffImageMime, type ImageMime } from "@/lib/import/sniff";
export { formatIssue, type BatchSource, type ImportErrorDetails, type ImportIssue, type ImportResult, type ItemLine, type ItemsFile } from "@/lib/import/types";
