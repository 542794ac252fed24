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
# Persian's and Arabic's word lists with espeak-ng, from which rules 6's
# models of their unwritten vowels are made (`--locales fa`, `ar` or `all`;
# docs/writing-systems.md). Urdu's words come from PyPI, not Debian: mount
# them and give --urdu-words (scripts/dictionaries.sh fetches them).
RUN apt-get update \
    && apt-get install -y --no-install-recommends unicode-cldr-core mecab-ipadic \
        myspell-fa hunspell-ar espeak-ng \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 slugd
COPY --from=build /src/target/release/slugd /usr/local/bin/slugd
# UnicodeData.txt and CLDR's English names are built into the binary.
ENV SLUGD_CLDR=/usr/share/unicode/cldr/common
USER slugd
EXPOSE 8080
ENTRYPOINT ["slugd"]
CMD ["serve", "--listen", "0.0.0.0:8080"]
