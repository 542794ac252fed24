//! Integration tests: one binary, each test with its own redis-server and
//! its own app on port 0, talking real HTTP.

mod anywhere;
mod auth;
mod bench;
mod cli;
mod cluster;
mod connections;
mod docs;
mod errors;
mod fixtures;
mod health;
mod helpers;
mod holds;
mod home;
mod instances;
mod japanese;
mod letters;
mod load;
mod load_faults;
mod locales;
mod openapi;
mod operations;
mod options;
mod outage;
mod properties;
mod replicas;
mod reservations;
mod reshard;
mod rules;
mod security;
mod serve_process;
mod slug;
mod standards;
mod tsv;
mod unicode;
mod writing;
