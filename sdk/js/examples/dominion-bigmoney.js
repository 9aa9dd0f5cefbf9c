#!/usr/bin/env node
'use strict';
// Big Money for Dominion: never plays an action; buys Province with 8 or more
// coins, Gold with 6-7, Silver with 3-5, nothing with less. Every other
// decision (answers to attacks and the like) is random.
const path = require('path');
const { Bot, run, games } = require(path.join(__dirname, '..', 'arena-sdk.js'));
const dom = games.dominion;

function wanted(coins) {
  if (coins >= 8) return ['Province', 'Gold', 'Silver'];
  if (coins >= 6) return ['Gold', 'Silver'];
  if (coins >= 3) return ['Silver'];
  return [];
}

class BigMoney extends Bot {
  constructor() {
    super();
    this.name = 'bigmoney-js';
  }
  decide(view, options, pick) {
    const kind = this.decision.kind;
    if (kind === dom.ACTION && options.has(dom.END_ACTIONS)) return dom.END_ACTIONS;
    if (kind === dom.BUY) {
      const buys = dom.buys(options);
      for (const card of wanted(dom.coins(view))) if (card in buys) return buys[card];
      if (options.has(dom.END_TURN)) return dom.END_TURN;
    }
    return this.randomChoice(options, pick);
  }
}

run(BigMoney);
