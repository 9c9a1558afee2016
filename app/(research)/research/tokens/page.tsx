import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { listTokens } from "@/lib/auth/api-tokens";
import { PageHeader } from "@/components/ui/page-header";
import { ApiTokensPanel } from "@/components/research/api-tokens-panel";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  const user = await requirePageRole("/research/tokens", "ADMIN", "RESEARCHER");
  const tokens = await listTokens(user.id);
  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Script Yardstick from a notebook: send <code>Authorization: Bearer &lt;token&gt;</code>. The routes are described in the{" "}
            <Link className="text-brand-700 underline" href="/research/api">
              API reference
            </Link>
            .
          </>
        }
      />
      <ApiTokensPanel initialTokens={tokens} />
    </>
  );
}
