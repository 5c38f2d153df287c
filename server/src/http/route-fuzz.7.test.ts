// One share of the route fuzz test; the walk and the split are in server/src/test/route-fuzz.ts.
import { fuzzRouteShard } from '../test/route-fuzz.ts';

fuzzRouteShard(7);
