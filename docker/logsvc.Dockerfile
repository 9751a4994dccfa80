# The logsvc server image (the image a LogService runs). Build from the repository root:
#   docker build -f docker/logsvc.Dockerfile -t logsvc/logsvc:0.1.0 .
# Not built in CI.
FROM node:20-bookworm-slim AS build
# node-gyp builds the native addons (re2, zstd-napi) in npm ci's postinstall.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN npm ci && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
RUN groupadd -g 10001 logsvc && useradd -u 10001 -g logsvc -d /var/logsvc -M logsvc \
  && mkdir -p /var/logsvc && chown logsvc:logsvc /var/logsvc
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/libs ./libs
COPY --from=build /src/apps/logsvc ./apps/logsvc
USER 10001
EXPOSE 3100 9095
# The operator's pods pass -config.file=... and -target=...; the preStop hook runs `node -e`.
ENTRYPOINT ["node", "--max-semi-space-size=64", "--initial-old-space-size=256", "apps/logsvc/dist/main.js"]
