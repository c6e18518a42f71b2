# querygate on Debian 12, dependencies from apt only.
FROM debian:12 AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake pkg-config libboost1.81-dev libboost-json1.81-dev libpqxx-dev libsqlite3-dev \
      libsimdjson-dev libpg-query-dev libyaml-cpp-dev prometheus-cpp-dev libgtest-dev libbenchmark-dev \
      libhowardhinnant-date-dev libpcre2-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release -DQG_BUILD_TESTS=OFF && cmake --build /build -j "$(nproc)" --target querygate

FROM debian:12
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libboost-json1.81.0 libpqxx-6.4 libsqlite3-0 libsimdjson14 libpg-query1504.0 libyaml-cpp0.7 libprometheus-cpp-core1.0 \
      libdate-tz3 tzdata libpcre2-8-0 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /build/querygate /usr/local/bin/querygate
EXPOSE 8080
# Inside a container the gateway must listen beyond loopback; publish the port on 127.0.0.1 only.
ENTRYPOINT ["querygate", "--demo-dir", "/var/lib/querygate"]
