# The logsvc operator image (charts/logsvc-operator runs it). Build from the repository root:
#   docker build -f docker/operator.Dockerfile -t logsvc/logsvc-operator:0.1.0 .
# Not built in CI.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN npm ci && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# configOverrides are checked with logsvc's own config loader (and what it imports).
COPY --from=build /src/libs/config ./libs/config
COPY --from=build /src/libs/errors ./libs/errors
COPY --from=build /src/libs/gocompat ./libs/gocompat
COPY --from=build /src/libs/operator-api ./libs/operator-api
COPY --from=build /src/libs/operator-render ./libs/operator-render
COPY --from=build /src/apps/operator ./apps/operator
USER 10001
# In the cluster: the pod's ServiceAccount (no --kubeconfig).
ENTRYPOINT ["node", "apps/operator/dist/main.js"]
