#!/usr/bin/env node
'use strict';
// Random bot for every Arena game: picks a uniformly random legal answer.
const path = require('path');
const { Bot, run } = require(path.join(__dirname, '..', 'arena-sdk.js'));

class RandomBot extends Bot {
  constructor() {
    super();
    this.name = 'random-js';
  }
  decide(view, options, pick) {
    return this.randomChoice(options, pick);
  }
}

run(RandomBot);
