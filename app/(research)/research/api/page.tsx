import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { buildOpenApi } from "@/lib/http/openapi";
import { apiRoutes } from "@/app/api/openapi.json/manifest";
import { PageHeader } from "@/components/ui/page-header";
import { ApiReference } from "@/components/research/api-reference";

export const metadata: Metadata = { title: "API reference" };

export default async function ApiReferencePage() {
  await requirePageRole("/research/api", "ADMIN", "RESEARCHER");
  const doc = buildOpenApi(apiRoutes) as Parameters<typeof ApiReference>[0]["doc"];
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            Every route, generated from the schemas the server validates with. The same document as OpenAPI 3.1:{" "}
            <a className="text-brand-700 underline" href="/api/openapi.json">
              /api/openapi.json
            </a>
            . Make a token on{" "}
            <Link className="text-brand-700 underline" href="/research/tokens">
              API tokens
            </Link>
            ; a guide is in docs/api.md.
          </>
        }
      />
      <ApiReference doc={doc} />
    </>
  );
}
