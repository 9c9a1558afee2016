import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { listAgents, agentStepCapOf } from "@/lib/participants/agents";
import { AgentsPanel } from "@/components/research/agents-panel";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  await requirePageRole(`/research/studies/${slug}/agents`, "ADMIN", "RESEARCHER");
  const [agents, stepCap] = await Promise.all([listAgents(slug), agentStepCapOf(slug)]);
  return <AgentsPanel slug={slug} initialAgents={agents} stepCap={stepCap} />;
}
