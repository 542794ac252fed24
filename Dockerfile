# slugd: one image for the loader job and the service.
# The compiler data/link-order.rustc names: the link order's symbol
# names are this compiler's (build.rs).
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src src
COPY engine engine
COPY xtask xtask
COPY benches benches
COPY examples examples
COPY tests tests
COPY data data
RUN cargo build --release --locked --bin slugd

FROM debian:bookworm-slim
# CLDR 41's names in every locale, for `slugd load --locales`, IPADIC's
# readings, for Japanese (`--locales ja` or `all`; docs/japanese.md), and
# the word lists and espeak-ng from which the models of the vowels
# Persian, Urdu, Arabic and Hebrew do not write are made (`--locales fa`,
# `ur`, `ar`, `he` or `all`; docs/writing-systems.md): Persian's, Arabic's
# and Hebrew's from Debian, Urdu's from PyPI's LughaatNLP, Arabic's names
# from PyPI's arabic-name-romanizer, Hebrew's readings by PyPI's nakdimon,
# which scripts/dictionaries.sh fetches, checks and runs (pip and venv only
# for that, removed after).
COPY scripts/dictionaries.sh scripts/dictionaries.sh
COPY scripts/hebrew_readings.py scripts/hebrew_readings.py
COPY scripts/lib scripts/lib
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3-pip python3-venv \
    && scripts/dictionaries.sh \
    && apt-get purge -y --auto-remove python3-pip python3-venv \
    && rm -rf /var/lib/apt/lists/* scripts
RUN useradd --system --uid 10001 slugd
COPY --from=build /src/target/release/slugd /usr/local/bin/slugd
# UnicodeData.txt and CLDR's English names are built into the binary.
ENV SLUGD_CLDR=/usr/share/unicode/cldr/common
# The models of vowels, made once here (a minute or two of espeak-ng), so
# that every container reads them in milliseconds instead of making them
# at each start. Named by what they were made from: a container given
# other word lists makes its own (in memory, the log says, as the
# directory is not the service user's to write).
ENV SLUGD_CACHE_DIR=/var/cache/slugd
RUN slugd prepare --locales all
USER slugd
EXPOSE 8080
ENTRYPOINT ["slugd"]
CMD ["serve", "--listen", "0.0.0.0:8080"]
