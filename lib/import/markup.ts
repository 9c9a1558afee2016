/**
 * Whether bytes hold markup a browser would act on if the file were ever rendered as a page: an
 * HTML tag that runs or loads something (script, iframe, object, embed, svg, html, body, img,
 * meta, link, style, form, base) or a javascript: URL. Media files carry text in their metadata
 * (PNG text chunks, MP4 free boxes), and XML there is normal (an XMP packet: x:xmpmeta, rdf:RDF),
 * so only HTML's own elements count. Read as latin1, so any byte sequence is text. O(bytes).
 */
const markup = /<\s*\/?\s*(script|iframe|object|embed|svg|html|body|img|meta|link|style|form|base)\b|javascript\s*:/i;

export function holdsMarkup(bytes: Uint8Array): boolean {
  return markup.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}
