// provider::containerbackup::name_from_id: the short name of a restore channel id (restore-channel-id.ts).
import type { FunctionImplementation } from "../framework/types.js";
import { restoreChannelIdParts } from "./restore-channel-id.js";

export const nameFromId: FunctionImplementation = ([id]) => restoreChannelIdParts(String(id)).name;
