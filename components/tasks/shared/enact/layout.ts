/** Layout and keys of the slot-filling kinds (ENACT forward and inverse): their numbered steps. */

/** The slot a digit key names: "1".."9" are slots 1..9, "0" is slot 10; null otherwise or out of range. */
export function slotOfKey(key: string, length: number): number | null {
  if (!/^[0-9]$/.test(key)) return null;
  const slot = key === "0" ? 9 : Number(key) - 1;
  return slot < length ? slot : null;
}

/** "1–6" for the key hint */
export function slotKeysText(length: number): string {
  if (length <= 1) return "1";
  return length >= 10 ? "1–9, 0" : `1–${length}`;
}

/**
 * Side of a step's square (slot image, observation thumbnails) for an item with `length` steps:
 * as large as lets every step fit in the viewport's height next to the site header and the submit
 * bar (192 px of chrome), between 64 and 160 px; from 7 steps on a fixed 104 px (a smaller
 * picture is hard to read) and the list scrolls inside its panel. Never wider than `maxVw` of the
 * viewport's width, so that a row of squares fits on a phone.
 */
export function stepSquareCss(length: number, maxVw = 30): string {
  if (length >= 7) return `min(104px, ${maxVw}vw)`;
  return `min(clamp(64px, calc((100dvh - 192px - ${4 * (length - 1)}px) / ${length} - 10px), 160px), ${maxVw}vw)`;
}
