import Link from "next/link";
import type { CurrentUser } from "@/lib/session";
import { navByRole, homePathFor } from "@/config/nav";
import { SignOutButton } from "@/components/layout/sign-out-button";
import { NavLinks } from "@/components/layout/nav-links";

const roleLabel = { ADMIN: "Admin", RESEARCHER: "Researcher", ANNOTATOR: "Annotator" } as const;

export function SiteHeader({ user }: { user: CurrentUser }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-6 px-4 sm:px-6">
        <Link href={homePathFor(user.role)} className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
          <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-brand-600 text-sm font-bold text-white">Y</span>
          Yardstick
        </Link>
        <NavLinks items={navByRole[user.role]} />
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span className="hidden text-slate-600 sm:inline">{user.name}</span>
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{roleLabel[user.role]}</span>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
