/** A streamed download (exports): the file's name and type, never cached, never sniffed. */
export function attachmentResponse({ stream, fileName, contentType }: { stream: ReadableStream<Uint8Array>; fileName: string; contentType: string }): Response {
  return new Response(stream, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
