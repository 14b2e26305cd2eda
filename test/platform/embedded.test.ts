import { behaviourSuite } from "./behaviour.js";
import { embeddedFactory } from "./helpers.js";

behaviourSuite("embedded", embeddedFactory);
