# Outpost's container image: a build stage that compiles `outpost` on Debian 12, and a slim
# runtime stage with only the runtime libraries, running as a non-root user. Every RUN step is a
# script under deploy/docker/ that CI also runs (tests/deploy/docker_check.sh), since CI has no
# Docker engine.
#
#   docker build -t outpost .
#   docker run -d --name outpost -v "$PWD/config:/config:ro" -e LICHESS_BOT_TOKEN=... outpost
#
# Build argument OUTPOST_MARCH: the CPU level (x86-64-v2 runs on any x86-64 since ~2009;
# x86-64-v3 adds BMI2/PEXT, faster move generation on Haswell/Zen and later).

FROM debian:bookworm-slim AS build
ARG OUTPOST_MARCH=x86-64-v2
WORKDIR /src
COPY . .
RUN OUTPOST_MARCH="${OUTPOST_MARCH}" deploy/docker/build.sh --prefix /opt/outpost

FROM debian:bookworm-slim AS runtime
COPY deploy/runtime-packages.txt /tmp/deploy/runtime-packages.txt
COPY deploy/docker/runtime-setup.sh /tmp/deploy/docker/runtime-setup.sh
RUN /tmp/deploy/docker/runtime-setup.sh && rm -rf /tmp/deploy
COPY --from=build /opt/outpost/bin/outpost /usr/local/bin/outpost
COPY --from=build /opt/outpost/share/outpost/config.example.yml /usr/local/share/outpost/config.example.yml

# Gaviota tablebases are not in the image (5-piece tables are 6.5 GB): mount a folder of them
# read-only and name it in engine.tablebases.gaviota_paths, e.g. Debian's 3-piece set:
#   docker run ... -v /usr/share/gaviotatb/gtb4:/tablebases/gaviota:ro outpost
#   with `gaviota_paths: [/tablebases/gaviota]` under engine.tablebases in config.yml.
# uid/gid 10001 (created by runtime-setup.sh): chown a PGN bind mount to it, or use a volume.
USER 10001:10001
WORKDIR /data
VOLUME ["/data/pgn"]
# health.listen; the image's HEALTHCHECK asks it from inside the container, so the default
# 127.0.0.1:8080 works. Publish the port only with health.listen: "0.0.0.0:8080".
EXPOSE 8080
# SIGTERM finishes running games (up to shutdown_grace_s, default 300 s): stop the container
# with `docker stop -t 330` or compose's stop_grace_period, or Docker kills it after 10 s.
STOPSIGNAL SIGTERM
# /healthz is 503 while the Lichess event stream is down; start-period covers the login.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["outpost", "healthcheck", "--quiet", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["outpost"]
CMD ["run", "--config", "/config/config.yml"]
