-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "rateAt" TIMESTAMP(3),
ADD COLUMN     "rateTokens" DOUBLE PRECISION;
