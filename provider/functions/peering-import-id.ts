// provider::tsdb::peering_import_id: `<peering_connection_id>,<platform_vpc_id>`, the import id
// of a tsdb_peering_connection (its first import format).
import type { FunctionImplementation } from "../framework/types.js";

export const peeringImportId: FunctionImplementation = ([peeringConnectionId, platformVpcId]) => `${Number(peeringConnectionId)},${Number(platformVpcId)}`;
