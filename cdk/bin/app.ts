#!/usr/bin/env node
/**
 * `npx cdk synth|deploy` runs this (cdk.json). Choose the stage with `-c stage=dev` (default prod).
 */
import { createVatManApp } from '../lib/app';

createVatManApp().app.synth();
