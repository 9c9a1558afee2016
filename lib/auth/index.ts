import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { checkPassword, hashPassword } from "@/lib/auth/passwords";
import { clientAddress, currentLockout, lockoutErrorCode, recordLoginFailure, recordLoginSuccess } from "@/lib/auth/login-throttle";
import { currentSessionVersion, endAllSessions, tokenSessionVersion } from "@/lib/auth/session-version";
import { enterByCredentials } from "@/lib/studies/entry";
import { noteSignInRefusal } from "@/lib/auth/sign-in-refusals";
import { findUserForSignIn, setPasswordHash } from "@/lib/repos/users";

/** an argon2id hash of a random password, checked when the email is unknown */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$W3Ctkku9dUulG3KXD37myg$mICYyjTw6xEdA7ChSb4xx88lYKpy6IlWTk2mxq7mCd8";

const credentialsSchema = z.object({ email: z.string().trim().toLowerCase().email(), password: z.string().min(1).max(4096) });

/**
 * Staff sign in with email and password; participants of a study by its link (provider
 * "study-link", lib/studies/entry.ts): the link's token and query string are the credentials, and
 * signing in creates or resumes the participant's passwordless account. Refusals throw, so that
 * next-auth hands the reason ("the study is full", "PROLIFIC_PID: missing") to the page.
 * Sessions are signed JWT cookies (NEXTAUTH_SECRET), so they survive a server restart; the role,
 * the disabled flag and the session version (lib/auth/session-version.ts: signing out and disabling end
 * every session of the user) are read from the database on every request (lib/auth/session.ts), so a
 * change takes effect at once.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  // next-auth's own default, spelled out: cookies are httpOnly and SameSite=Lax, and over https
  // (NEXTAUTH_URL https://...) Secure with the __Secure-/__Host- prefixes (tests/faults/security.faults.test.ts)
  useSecureCookies: (process.env.NEXTAUTH_URL ?? "").startsWith("https://"),
  pages: { signIn: "/signin" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        // rate limiting (lib/auth/login-throttle.ts): a locked email or address is refused before any check
        const address = clientAddress(request?.headers);
        const lockout = await currentLockout(email, address);
        if (lockout) throw new Error(lockoutErrorCode(lockout));
        const user = await findUserForSignIn(email);
        // unknown accounts cost the same hash as known ones, so timing does not tell them apart
        const check = await checkPassword(password, user?.passwordHash ?? DUMMY_HASH);
        if (!user?.passwordHash || user.disabled || !check.ok) {
          const started = await recordLoginFailure(email, address);
          if (started) throw new Error(lockoutErrorCode(started));
          return null;
        }
        await recordLoginSuccess(email, address);
        // bcrypt (or weaker argon2id) hashes from before become argon2id at the first sign-in
        if (check.needsRehash) await setPasswordHash(user.id, await hashPassword(password));
        return { id: user.id, email: user.email, name: user.name };
      },
    }),
    CredentialsProvider({
      id: "study-link",
      name: "Study link",
      credentials: { entryToken: { type: "text" }, query: { type: "text" }, invite: { type: "text" } },
      async authorize(raw, request) {
        const { entryToken, query, invite } = raw ?? {};
        try {
          const user = await enterByCredentials(invite ? { invite } : { entryToken, query: query ?? "" }, clientAddress(request?.headers));
          return { id: user.id, email: user.email, name: user.name };
        } catch (error) {
          noteSignInRefusal(error);
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        // a new session carries the user's current session version
        token.sub = user.id;
        token.sv = (await currentSessionVersion(user.id)) ?? 0;
        return token;
      }
      // next-auth's own session endpoint (/api/auth/session): a revoked session answers nothing and loses its cookie
      const current = token.sub ? await currentSessionVersion(token.sub) : null;
      if (current === null || current !== tokenSessionVersion(token)) throw new Error("session ended");
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
  events: {
    // signing out ends every session of the user, not only this cookie
    async signOut({ token }) {
      if (typeof token?.sub === "string" && token.sub) await endAllSessions(token.sub);
    },
  },
};
