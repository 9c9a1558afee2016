/**
 * The Content-Security-Policy of every page (proxy.ts adds it with a fresh nonce per request;
 * Next.js puts the nonce on its own scripts, so no inline script without it runs). Styles allow
 * 'unsafe-inline' because React renders style attributes (charts, progress bars), which nonces do
 * not cover; scripts never do. 'strict-dynamic' lets the nonced scripts load Next's chunks.
 * Next.js documents the shape: docs/01-app/02-guides/content-security-policy.md.
 */
export function pageContentSecurityPolicy(nonce: string, options: { development?: boolean; https?: boolean; assetOrigin?: string | null } = {}): string {
  // assets answered by a redirect to an S3 bucket (ASSET_S3_SERVE=redirect) load from its origin
  const assetOrigin = options.assetOrigin ? ` ${options.assetOrigin}` : "";
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${assetOrigin}`,
    ...(assetOrigin ? [`media-src 'self' blob:${assetOrigin}`] : []),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

// The headers of every response (nosniff, Referrer-Policy, X-Frame-Options, ...) and the API's own
// CSP are static: next.config.js sets them.
