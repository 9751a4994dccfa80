import { compilePipeline } from '../compile';
import { createSampleExtractorBuilder } from './extractor-builder';

/** The sample extractor builder over the engine's pipeline compiler. */
export const buildSampleExtractor = createSampleExtractorBuilder(compilePipeline);
