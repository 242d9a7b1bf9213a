# The reference server as a container: the one-file server (dist/serve/index.js, made by
# `npm run bundle`) on Node 24's slim image, as a non-root user, its store on the /data volume.
#   docker build -t gitlab-actions-serve .
#   docker run -p 8080:8080 -v "$PWD/seed.yaml:/seed/seed.yaml:ro" gitlab-actions-serve
# Seed: GITLAB_ACTIONS_SEED (YAML text), else /seed/seed.yaml, else the built-in one, whose root token
# is random here (printed at start). GITLAB_ACTIONS_ALLOWED_HOSTS: names such as the service name that
# other containers reach it by (docker/entrypoint.sh).
ARG NODE_IMAGE=node:24-slim
FROM ${NODE_IMAGE}
# node images have the user node (uid 1000); another Debian-based base gets one.
RUN id -u node > /dev/null 2>&1 || useradd --uid 1000 --create-home node; \
    mkdir -p /app /data /seed && chown node:node /data
COPY dist/serve/index.js docker/entrypoint.sh /app/
USER node
ENV GITLAB_ACTIONS_PORT=8080
EXPOSE 8080
VOLUME /data
# node, not curl: slim images have no curl.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=6 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.GITLAB_ACTIONS_PORT}/-/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/entrypoint.sh"]
