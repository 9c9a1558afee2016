# Yardstick production image: `docker compose up` builds it (see docker-compose.yml).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
# the command line, built once to dist/cli (npm ci ran before the sources were copied)
RUN node scripts/build-cli.mjs && npx next build

FROM node:20-bookworm-slim AS run
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
COPY --from=build /app /app
EXPOSE 3000
# apply pending migrations, then serve
CMD ["sh", "-c", "npx tsx scripts/db-migrate.ts && node scripts/serve.mjs -p ${PORT} -H 0.0.0.0"]
