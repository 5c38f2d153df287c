// Deals found in text (deals.ts, docs/processing.md "Deals"): the kind, the parties in their
// roles, the amount and the date, through extractEntities as processing calls it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractEntities, type LedgerCandidate } from './index.ts';

const deals = (text: string) => extractEntities(text).ledger.filter((candidate) => candidate.deal);
const roles = (candidate: LedgerCandidate) => candidate.deal!.parties.map((party) => `${party.role}=${party.mention.text}`);

describe('deals', () => {
  it('reads an agreed purchase with its price, and its closing date from the next sentence', () => {
    const [deal, ...more] = deals('Orion Freight Holdings said on Tuesday it had agreed to buy Baltic Rail Logistics for $420 million. '
      + 'Chief executive Miriam Okonkwo told reporters the deal would close in the second quarter of 2025. '
      + 'The acquisition was advised by Kestrel Partners, according to a statement from Orion Freight.');
    assert.equal(more.length, 0, 'the adviser and the source make no deal');
    assert.equal(deal!.deal!.kind, 'acquisition');
    assert.deepEqual(roles(deal!), ['acquirer=Orion Freight Holdings', 'target=Baltic Rail Logistics']);
    assert.deepEqual([deal!.money?.money?.amount, deal!.money?.money?.currency, deal!.year, deal!.quarter], [420_000_000, 'USD', 2025, 2]);
  });

  it('tells buyer from target whatever the form: passive, noun, "sell … to"', () => {
    assert.deepEqual(roles(deals('Trellis Software was bought by Meridian Group for an undisclosed sum.')[0]!), ['acquirer=Meridian Group', 'target=Trellis Software']);
    assert.deepEqual(roles(deals('The takeover of Felton Mills Ltd by Graystone Industries is expected to close in 2025.')[0]!), ['acquirer=Graystone Industries', 'target=Felton Mills Ltd']);
    const carrow = deals('Carrow Pharma completed its $1.2 billion acquisition of Tessaly Therapeutics in the third quarter of 2024.')[0]!;
    assert.deepEqual([...roles(carrow), carrow.money?.money?.amount, carrow.year, carrow.quarter], ['acquirer=Carrow Pharma', 'target=Tessaly Therapeutics', 1_200_000_000, 2024, 3]);
    assert.deepEqual(roles(deals('Stratos Aerospace agreed to sell its satellite unit to Corvane Systems for $310 million.')[0]!), ['acquirer=Corvane Systems', 'seller=Stratos Aerospace']);
  });

  it('reads rounds, investments and mergers', () => {
    const round = deals('Verdant Bio raised a $250 million Series B led by Northgate Ventures.')[0]!;
    assert.deepEqual([round.deal!.kind, ...roles(round), round.money?.money?.currency], ['funding', 'recipient=Verdant Bio', 'investor=Northgate Ventures', 'USD']);
    const invested = deals('Sablewood Capital invested €3m in Kinetic Grid Ltd in June 2023.')[0]!;
    assert.deepEqual([invested.deal!.kind, ...roles(invested), invested.money?.money?.amount, invested.money?.money?.currency, invested.quarter], ['investment', 'investor=Sablewood Capital', 'investee=Kinetic Grid Ltd', 3_000_000, 'EUR', 2]);
    const merger = deals('Brightwater Energy will merge with Solace Power Group in an all-stock deal worth £800 million.')[0]!;
    assert.deepEqual([merger.deal!.kind, ...roles(merger)], ['merger', 'party=Brightwater Energy', 'party=Solace Power Group']);
  });

  it('leaves out talks, denials, revenue, valuations and money with no counterpart', () => {
    assert.deepEqual(deals('Ostrava Steel Works said it was not in talks to buy any competitor.'), []);
    assert.deepEqual(deals('UniCredit said a full merger with Commerzbank AG was only one option and that no talks had begun.'), []);
    assert.deepEqual(deals('Helix Retail Group reported revenue of $2.1 billion for 2024.').map(roles), []);
    assert.deepEqual(deals('Hanbit Semiconductor said the company would invest 4 trillion won in a new packaging plant.'), []);
    const round = deals('Lumora Health Inc. has raised $45 million in a round, valuing the company at about $600 million.')[0]!;
    assert.equal(round.money?.money?.amount, 45_000_000, 'the valuation is not the price');
  });
});
