#!/usr/bin/env node
// Compiles contracts/src/*.sol with the solc-js pinned in package-lock.json and writes, for
// each deployable contract, <out>/<Name>.abi (JSON) and <out>/<Name>.bin (creation bytecode,
// hex), plus <out>/compiler.json (compiler version, settings, and the SHA-256 of every source
// and of package-lock.json). Run through `make contracts`.
//
// Build time only. Everything comes from node_modules (installed by `npm ci` from the lock
// file); the compiler is the soljson.js inside the solc package, so nothing is downloaded here.
// The output is deterministic: same sources and compiler, same bytes (metadata names sources by
// their relative path, never an absolute one), which is what `make contracts-check` relies on.
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const solc = require('solc');

const here = __dirname;
const srcDir = path.join(here, 'src');
const nodeModules = path.join(here, 'node_modules');

// Contracts that get an ABI, bytecode and Go bindings; interfaces are compiled but not emitted.
const DEPLOYABLE = ['CashToken', 'DeliveryVersusPayment', 'IdentityRegistry', 'ShareToken'];

// Cancun: supported by Polygon PoS and Amoy and by go-ethereum's simulated backend.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'ipfs' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

function main() {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node compile.js <output-dir>');
    process.exit(2);
  }
  const sources = {};
  for (const f of fs.readdirSync(srcDir).filter((f) => f.endsWith('.sol')).sort()) {
    sources[`src/${f}`] = { content: fs.readFileSync(path.join(srcDir, f), 'utf8') };
  }
  const input = { language: 'Solidity', sources, settings: SETTINGS };

  const findImports = (p) => {
    // Only package imports (OpenZeppelin) and our own src/ are resolvable.
    const candidates = [path.join(here, p), path.join(nodeModules, p)];
    for (const c of candidates) {
      if (c.startsWith(here + path.sep) && fs.existsSync(c)) {
        return { contents: fs.readFileSync(c, 'utf8') };
      }
    }
    return { error: `not found: ${p}` };
  };

  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  let failed = false;
  for (const e of output.errors || []) {
    // Warnings in our own sources fail the build too: they are cheap to fix and easy to miss.
    const ours = e.sourceLocation && e.sourceLocation.file.startsWith('src/');
    if (e.severity === 'error' || ours) failed = true;
    console.error(e.formattedMessage || e.message);
  }
  if (failed) process.exit(1);

  fs.mkdirSync(out, { recursive: true });
  for (const name of DEPLOYABLE) {
    const c = output.contracts[`src/${name}.sol`] && output.contracts[`src/${name}.sol`][name];
    if (!c || !c.evm.bytecode.object) {
      console.error(`no bytecode for ${name}`);
      process.exit(1);
    }
    // One line each and no trailing newline: abigen embeds both files verbatim.
    fs.writeFileSync(path.join(out, `${name}.abi`), JSON.stringify(c.abi));
    fs.writeFileSync(path.join(out, `${name}.bin`), c.evm.bytecode.object);
  }
  const ozVersion = require(path.join(nodeModules, '@openzeppelin/contracts/package.json')).version;
  // The hashes let a Go test see, without node, that the committed build is of these sources
  // and this lock file.
  const sha256 = (p) => crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  const inputs = { 'package-lock.json': sha256(path.join(here, 'package-lock.json')) };
  for (const k of Object.keys(sources)) inputs[k] = sha256(path.join(here, k));
  const info = { solc: solc.version(), openzeppelinContracts: ozVersion, settings: SETTINGS, sha256: inputs };
  fs.writeFileSync(path.join(out, 'compiler.json'), JSON.stringify(info, null, 2) + '\n');
  console.log(`compiled ${DEPLOYABLE.join(', ')} with solc ${solc.version()} into ${out}`);
}

main();
