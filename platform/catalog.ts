// The platform's seeded catalog: regions, allowed sizes, products and plans with prices.
// The seeds do not show allowed regions, sizes or prices; sizes and the 250 × memory rule come from
// the reference provider, regions are the cloud regions the reference platform offers, prices are
// a made-up but stable price list (per hour, USD).

export interface Region {
  code: string;
  /** `aws` regions support VPCs, peering and exporters; `azure` (`az-…`) regions only services */
  cloud: "aws" | "azure";
  /** price multiplier relative to us-east-1 */
  priceFactor: number;
}

export const REGIONS: readonly Region[] = [
  { code: "us-east-1", cloud: "aws", priceFactor: 1 },
  { code: "us-east-2", cloud: "aws", priceFactor: 1 },
  { code: "us-west-2", cloud: "aws", priceFactor: 1 },
  { code: "ca-central-1", cloud: "aws", priceFactor: 1.06 },
  { code: "sa-east-1", cloud: "aws", priceFactor: 1.42 },
  { code: "eu-central-1", cloud: "aws", priceFactor: 1.12 },
  { code: "eu-west-1", cloud: "aws", priceFactor: 1.08 },
  { code: "eu-west-2", cloud: "aws", priceFactor: 1.1 },
  { code: "ap-south-1", cloud: "aws", priceFactor: 1.05 },
  { code: "ap-southeast-1", cloud: "aws", priceFactor: 1.18 },
  { code: "ap-southeast-2", cloud: "aws", priceFactor: 1.2 },
  { code: "ap-northeast-1", cloud: "aws", priceFactor: 1.22 },
  { code: "az-eastus", cloud: "azure", priceFactor: 1.02 },
  { code: "az-eastus2", cloud: "azure", priceFactor: 1.02 },
  { code: "az-westeurope", cloud: "azure", priceFactor: 1.12 },
];

/** Region of a service when `region_code` is omitted (the seed does not show one). */
export const DEFAULT_REGION = "us-east-1";

export const MEMORY_SIZES = [2, 4, 8, 16, 32, 64, 128, 192, 256] as const;
export const MILLI_CPU_PER_GB = 250;
export const MILLI_CPU_SIZES = MEMORY_SIZES.map((gb) => gb * MILLI_CPU_PER_GB);
export const DEFAULT_MILLI_CPU = 500;
export const DEFAULT_MEMORY_GB = 2;

export function findRegion(code: string): Region | undefined {
  return REGIONS.find((r) => r.code === code);
}

export function regionList(cloud?: Region["cloud"]): string {
  return REGIONS.filter((r) => !cloud || r.cloud === cloud)
    .map((r) => r.code)
    .join(", ");
}

interface ProductDef {
  id: string;
  name: string;
  description: string;
  /** USD per GB of memory per hour in us-east-1 */
  pricePerGbHour: number;
}

const PRODUCTS: readonly ProductDef[] = [
  {
    id: "tsdb-service",
    name: "Time-series database service",
    description: "A managed time-series database service: compute sized by memory (milli-CPU = 250 × GB), usage-based storage.",
    pricePerGbHour: 0.0356,
  },
  {
    id: "tsdb-read-replica",
    name: "Read replica node",
    description: "A node of a read replica set of a service, sized like a service.",
    pricePerGbHour: 0.0214,
  },
];

export interface CatalogPlan {
  product_id: string;
  region_code: string;
  milli_cpu: number;
  memory_gb: number;
  price: number;
}

export interface CatalogProduct {
  id: string;
  name: string;
  description: string;
  plans: CatalogPlan[];
}

/** Every product with one plan per region and size. */
export function catalogProducts(): CatalogProduct[] {
  return PRODUCTS.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    plans: REGIONS.flatMap((region) =>
      MEMORY_SIZES.map((gb) => ({
        product_id: p.id,
        region_code: region.code,
        milli_cpu: gb * MILLI_CPU_PER_GB,
        memory_gb: gb,
        price: Math.round(gb * p.pricePerGbHour * region.priceFactor * 10_000) / 10_000,
      })),
    ),
  }));
}
