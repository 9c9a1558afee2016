import { z } from "zod";

/** Helpers shared by the kinds' events.ts files (payload reading, common payload parts). */

export function payloadField(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/** " (keyboard)" from a payload's `via`, "" without one */
export function viaSuffix(payload: unknown): string {
  const via = payloadField(payload, "via");
  return typeof via === "string" ? ` (${via})` : "";
}

/** a payload's number field, or null */
export function numberField(payload: unknown, name: string): number | null {
  const value = payloadField(payload, name);
  return typeof value === "number" ? value : null;
}

/** a 0-based payload field shown 1-based ("?" when missing) */
export function oneBased(payload: unknown, name: string): string {
  const value = numberField(payload, name);
  return value === null ? "?" : String(value + 1);
}

export const eventIndex = z.number().int().min(0).max(999);
/** an image URL as shown ("/api/assets/<sha256>") */
export const eventImageRef = z.string().min(1).max(2048);
export const pointerVia = z.enum(["click", "keyboard", "touch"]);
