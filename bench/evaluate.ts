/** `npm run evaluate`: the forecasts' accuracy on simulated weeks (bench/cooling-forecast.ts); no local stack. */
import { benchCoolingForecast } from './cooling-forecast';

benchCoolingForecast();
