import { readNumberInput } from "@/lib/tasks/numeric/input";
import { stimulusImages } from "@/components/tasks/shared/media/stimulus-images";
import type { NumericView } from "@/components/tasks/numeric/numeric-task";

/** What the pages need to know about a numeric view and its draft ({ text }) without loading its component. */

const field = (answer: unknown, name: string): unknown =>
  answer !== null && typeof answer === "object" ? (answer as Record<string, unknown>)[name] : undefined;

export function numericImages(view: unknown): string[] {
  const v = view as NumericView;
  return [...stimulusImages(v.media)];
}

export function numericAnswerOf(draft: unknown): { value: number } | null {
  const text = field(draft, "text");
  if (typeof text !== "string") return null;
  const read = readNumberInput(text);
  return "value" in read ? { value: read.value } : null;
}

export function numericMissing(draft: unknown): string {
  const text = field(draft, "text");
  const read = readNumberInput(typeof text === "string" ? text : "");
  return "problem" in read ? read.problem : "";
}

/** A stored answer ({ value }) or the key's as the draft that shows it; a draft as it is. */
export function numericDisplayAnswer(answer: unknown): { text: string } {
  const value = field(answer, "value");
  if (typeof value === "number") return { text: String(value) };
  const text = field(answer, "text");
  return { text: typeof text === "string" ? text : "" };
}

export function describeNumericAnswer(answer: unknown): string {
  const value = field(answer, "value");
  if (typeof value === "number") return String(value);
  const text = field(answer, "text");
  return typeof text === "string" && text !== "" ? text : "no number";
}
