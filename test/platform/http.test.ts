// The HTTP client against `platform serve` must behave exactly like the embedded client.
import { behaviourSuite } from "./behaviour.js";
import { httpFactory } from "./helpers.js";

behaviourSuite("http", httpFactory);
