import IAPSimCore
