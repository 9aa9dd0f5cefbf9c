#!/usr/bin/env node
'use strict';
// Test bot: console.log must not reach the protocol stream; answers by label; async decide.
const path = require('path');
const { Bot, run } = require(path.join(__dirname, '..', '..', '..', 'sdk', 'js', 'arena-sdk.js'));

class NoisyBot extends Bot {
  onGameStart(game) {
    console.log('starting', game.name, 'in seat', game.seat);
  }
  async decide(view, options, pick) {
    console.log('stones:', view.stones, 'options:', options.labels());
    this.log('about to take ' + pick.max);
    await new Promise((r) => setTimeout(r, 1));
    return options.labels().slice(0, pick.max);
  }
  onGameEnd(result) {
    console.info('game over, rank', result.rank);
  }
}
run(NoisyBot);
