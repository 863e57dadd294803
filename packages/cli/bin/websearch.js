#!/usr/bin/env node
// Starts the CLI from its prebuilt bundle (a few files instead of several hundred modules keeps the cold start
// low). It only reads dist: an installed package never builds anything. Inside the workspace, `npm run websearch`
// (scripts/dev.mjs) and the CLI's tests rebuild the bundle first when sources are newer.
import "../dist/websearch.mjs"
