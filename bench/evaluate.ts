/** `npm run evaluate`: the forecasts' accuracy on simulated weeks (cooling and capacity); no local stack. */
import { benchCapacityForecast } from './capacity-evaluate';
import { benchCoolingForecast } from './cooling-forecast';

benchCoolingForecast();
benchCapacityForecast();
